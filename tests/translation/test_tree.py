"""An editor moves an English digest to another topic: its zh-hant translation follows, so the
zh-hant topics list what their English topics list (cms.translation.workflow.tree)."""

import pytest
from django.urls import reverse
from wagtail.models import Locale, Page

from cms.digests.models import DigestPage, TopicPage
from cms.translation.policy.roles import EDITORS
from tests.support.factories import TopicPageFactory
from tests.support.users import member

pytestmark = pytest.mark.django_db


def zh(page):
    return page.get_translation(Locale.objects.get(language_code="zh-hant"))


def topic_slugs(client, topic) -> list[str]:
    response = client.get(f"/api/v2/pages/{topic.pk}/", {"fields": "digests"})
    return [digest["slug"] for digest in response.json()["digests"]]


def move_as_editor(client, page, destination):
    client.force_login(member(EDITORS))
    url = reverse("wagtailadmin_pages:move_confirm", args=[page.pk, destination.pk])
    response = client.post(url)
    assert response.status_code == 302, response.content[:500]


def test_the_translation_moves_under_the_new_topics_translation(client, settings):
    settings.API_RESPONSE_CACHE_SECONDS = 0
    digest = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    old_topic = digest.get_parent()
    new_topic = TopicPage.objects.filter(locale=digest.locale).exclude(pk=old_topic.pk).first()
    translation = zh(digest)

    move_as_editor(client, digest, new_topic)

    digest, translation = (Page.objects.get(pk=page.pk) for page in (digest, translation))
    assert digest.get_parent().pk == new_topic.pk
    assert translation.get_parent().pk == zh(new_topic).pk
    assert translation.url.startswith(f"/zh-hant/{zh(new_topic).slug}/")
    assert translation.slug in topic_slugs(client, zh(new_topic))
    assert translation.slug not in topic_slugs(client, zh(old_topic))


def test_a_destination_not_yet_translated_leaves_the_translation_where_it_is(client):
    digest = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    old_zh_parent = zh(digest).get_parent()
    english_root = digest.get_parent().get_parent()
    new_topic = TopicPageFactory(parent=english_root, title="Only in English", slug="solo")

    move_as_editor(client, digest, new_topic)

    assert Page.objects.get(pk=digest.pk).get_parent().pk == new_topic.pk
    assert Page.objects.get(pk=zh(digest).pk).get_parent().pk == old_zh_parent.pk


def delete_as_editor(client, page, user=None):
    client.force_login(user or member(EDITORS))
    url = reverse("wagtailadmin_pages:delete", args=[page.pk])
    confirm = client.get(url)
    assert confirm.status_code == 200
    assert "also delete 1 translation" in confirm.content.decode()  # said before
    response = client.post(url, {"confirm_site_name": "Research digests"})
    assert response.status_code == 302, response.content[:500]


def test_an_editor_deleting_a_digest_deletes_its_translation(client, settings):
    """Nobody but an admin could delete the zh-hant page left behind (editors write English,
    translators delete nothing), and it stayed live with no source to translate from."""
    settings.API_RESPONSE_CACHE_SECONDS = 0
    digest = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    translation = zh(digest)

    delete_as_editor(client, digest)

    assert not Page.objects.filter(pk__in=[digest.pk, translation.pk]).exists()
    assert client.get(f"/api/v2/pages/{translation.pk}/").status_code == 404


def test_deleting_a_topic_deletes_its_translation_and_digests(client, admin_user):
    """(Editors delete no page with children: they have no bulk_delete right.)"""
    topic = TopicPage.objects.filter(locale__language_code="en").first()
    translated = [zh(page) for page in [topic, *topic.get_children()]]

    delete_as_editor(client, topic, admin_user)

    assert not Page.objects.filter(pk__in=[page.pk for page in translated]).exists()


def test_deleting_a_translation_leaves_its_english_source(admin_client):
    digest = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    url = reverse("wagtailadmin_pages:delete", args=[zh(digest).pk])
    assert admin_client.post(url).status_code == 302
    assert Page.objects.filter(pk=digest.pk).exists()
    assert not Page.objects.translation_of(digest).exists()


def test_an_editor_bulk_deleting_digests_deletes_their_translations(client, settings):
    settings.API_RESPONSE_CACHE_SECONDS = 0
    digests = list(DigestPage.objects.filter(locale__language_code="en").order_by("path")[:2])
    translations = [zh(digest) for digest in digests]
    client.force_login(member(EDITORS))
    ids = "&".join(f"id={digest.pk}" for digest in digests)
    url = reverse("wagtail_bulk_action", args=["wagtailcore", "page", "delete"]) + f"?{ids}"

    assert client.post(url).status_code == 302

    gone = [page.pk for page in digests + translations]
    assert not Page.objects.filter(pk__in=gone).exists()
    assert client.get(f"/api/v2/pages/{translations[0].pk}/").status_code == 404


def test_an_editor_unpublishing_a_digest_unpublishes_its_translation(client, settings):
    """A digest taken off the English site stayed live in Chinese, where editors may not act."""
    settings.API_RESPONSE_CACHE_SECONDS = 0
    digest = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    translation = zh(digest)
    assert client.get(f"/api/v2/pages/{translation.pk}/").status_code == 200
    client.force_login(member(EDITORS))
    url = reverse("wagtailadmin_pages:unpublish", args=[digest.pk])
    assert "also unpublish one translation" in client.get(url).content.decode()  # said before

    assert client.post(url).status_code == 302

    assert not Page.objects.get(pk=digest.pk).live
    assert not Page.objects.get(pk=translation.pk).live
    client.logout()
    assert client.get(f"/api/v2/pages/{translation.pk}/").status_code == 404


def test_unpublishing_a_translation_leaves_its_english_source_live(admin_client):
    digest = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    url = reverse("wagtailadmin_pages:unpublish", args=[zh(digest).pk])
    assert admin_client.post(url).status_code == 302
    assert not Page.objects.get(pk=zh(digest).pk).live
    assert Page.objects.get(pk=digest.pk).live


def test_an_editor_bulk_unpublishing_digests_unpublishes_their_translations(client):
    digests = list(DigestPage.objects.filter(locale__language_code="en").order_by("path")[:2])
    translations = [zh(digest) for digest in digests]
    client.force_login(member(EDITORS))
    ids = "&".join(f"id={digest.pk}" for digest in digests)
    url = reverse("wagtail_bulk_action", args=["wagtailcore", "page", "unpublish"]) + f"?{ids}"

    assert client.post(url).status_code == 302

    pages = Page.objects.filter(pk__in=[page.pk for page in digests + translations])
    assert not pages.filter(live=True).exists()
