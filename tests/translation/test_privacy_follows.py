"""An editor makes an English topic private: its zh-hant translation is private at once, not
at the next "Sync translated pages" (cms.translation.workflow.tree.follow_source_privacy)."""

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from wagtail.models import Locale, Page, PageViewRestriction

from cms.digests.models import DigestPage
from cms.translation.policy.roles import EDITORS
from tests.support.users import member

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_response_cache(settings):
    settings.API_RESPONSE_CACHE_SECONDS = 0


def zh(page):
    return page.get_translation(Locale.objects.get(language_code="zh-hant"))


@pytest.fixture
def editor(db):
    return member(EDITORS)


def set_privacy_as(client, editor, page, **form) -> None:
    client.force_login(editor)
    response = client.post(reverse("wagtailadmin_pages:set_privacy", args=[page.pk]), form)
    assert response.status_code == 200, response.content[:500]
    kept = PageViewRestriction.objects.filter(page=page).values_list("restriction_type", flat=True)
    assert list(kept) == ([] if form["restriction_type"] == "none" else [form["restriction_type"]])
    client.logout()


def zh_digest_slugs(client) -> list[str]:
    response = client.get(
        "/api/v2/pages/", {"type": "digests.DigestPage", "locale": "zh-hant", "limit": 100}
    )
    assert response.status_code == 200
    return [item["meta"]["slug"] for item in response.json()["items"]]


def test_a_login_restriction_on_an_english_topic_hides_its_translation(client, editor):
    digest = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    topic = digest.get_parent()
    zh_digest = zh(digest)
    assert zh_digest.slug in zh_digest_slugs(client)

    set_privacy_as(client, editor, topic, restriction_type="login")

    restriction = PageViewRestriction.objects.get(page=zh(topic))
    assert restriction.restriction_type == PageViewRestriction.LOGIN
    assert zh_digest.slug not in zh_digest_slugs(client)
    assert client.get(f"/api/v2/pages/{zh_digest.pk}/").status_code == 404


def test_changing_and_lifting_the_restriction_follows_too(client, editor):
    topic = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf").get_parent()
    group = Group.objects.create(name="Reviewers")

    set_privacy_as(client, editor, topic, restriction_type="groups", groups=[group.pk])
    restriction = PageViewRestriction.objects.get(page=zh(topic))
    assert restriction.restriction_type == PageViewRestriction.GROUPS
    assert list(restriction.groups.all()) == [group]

    set_privacy_as(client, editor, topic, restriction_type="password", password="s3cret")
    restriction = PageViewRestriction.objects.get(page=zh(topic))
    assert (restriction.restriction_type, restriction.password) == ("password", "s3cret")

    set_privacy_as(client, editor, topic, restriction_type="none")
    assert not PageViewRestriction.objects.filter(page=zh(topic)).exists()
    assert client.get(f"/api/v2/pages/{zh(topic).pk}/").status_code == 200


def test_a_translations_own_restriction_does_not_reach_the_english_page(client):
    topic = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf").get_parent()
    PageViewRestriction.objects.create(
        page=Page.objects.get(pk=zh(topic).pk), restriction_type="login"
    )

    assert not PageViewRestriction.objects.filter(page=topic).exists()
