"""`translation_status` in the public API holds published facts only: no staff names, no
draft's work, no ids of a source page the reader cannot see - in detail and listings alike."""

from urllib.parse import urlencode

import pytest
from django.contrib.auth.models import Group
from django.urls import reverse
from wagtail.models import PageViewRestriction
from wagtail_localize.models import Translation

from cms.translation.workflow.prefill import publish_translation

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uncached_api")]

SOURCE_KEYS = ("source_page_id", "source_revision_id", "synced_revision_id")


def statuses(client, page) -> list[dict]:
    """The page's status in its detail view and in a `fields=*` listing of its language."""
    detail = client.get(f"/api/v2/pages/{page.pk}/").json()["translation_status"]
    listing = client.get(
        "/api/v2/pages/",
        {"type": "digests.DigestPage", "fields": "*", "locale": "zh-hant", "limit": 100},
    ).json()["items"]
    (listed,) = [item["translation_status"] for item in listing if item["id"] == page.pk]
    return [detail, listed]


def translation_of(digest_en, digest_zh) -> Translation:
    return Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )


def edit_segment(client, translation, path: str, value: str) -> None:
    segment = translation.source.stringsegment_set.get(context__path=path)
    response = client.put(
        reverse("wagtail_localize:edit_string_translation", args=[translation.pk, segment.pk]),
        data=urlencode({"value": value}),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code in (200, 201), response.content  # updated, created


def test_a_translator_s_unpublished_edit_leaves_the_live_status_alone(
    client, translator, digest_en, digest_zh
):
    before = statuses(client, digest_zh)
    translator.first_name, translator.last_name = "Mei", "Lin"
    translator.save()
    client.force_login(translator)

    edit_segment(client, translation_of(digest_en, digest_zh), "summary", "譯者尚未發布的摘要。")
    client.logout()

    after = statuses(client, digest_zh)
    assert after == before
    assert after[0]["state"] == "up_to_date"
    assert "translated_by" not in after[0]


def test_publishing_the_translation_shows_it_without_naming_anyone(
    client, translator, digest_en, digest_zh
):
    translator.first_name, translator.last_name = "Mei", "Lin"
    translator.save()
    client.force_login(translator)
    translation = translation_of(digest_en, digest_zh)
    edit_segment(client, translation, "summary", "譯者發布的摘要。")
    publish_translation(translation, user=translator)
    client.logout()
    digest_zh.refresh_from_db()

    detail, listed = statuses(client, digest_zh)
    body = client.get(f"/api/v2/pages/{digest_zh.pk}/").content.decode()

    assert detail == listed
    assert detail["translated_revision_id"] == digest_zh.live_revision_id
    assert detail["translated_at"][:19] == digest_zh.last_published_at.isoformat()[:19]
    assert "Mei" not in body and "Lin" not in body and "translator" not in body


def test_a_public_source_is_named(client, digest_en, digest_zh):
    detail, listed = statuses(client, digest_zh)

    assert detail == listed
    assert detail["source_page_id"] == digest_en.pk
    assert detail["source_revision_id"] == digest_en.live_revision_id


def restrict(page, kind: str) -> None:
    restriction = PageViewRestriction.objects.create(
        page=page, restriction_type=kind, password="s3cret" if kind == "password" else ""
    )
    if kind == PageViewRestriction.GROUPS:
        restriction.groups.set([Group.objects.get_or_create(name="Insiders")[0]])


@pytest.mark.parametrize(
    "hide",
    [
        pytest.param(lambda page: page.unpublish(), id="unpublished"),
        pytest.param(lambda page: restrict(page, PageViewRestriction.PASSWORD), id="password"),
        pytest.param(lambda page: restrict(page, PageViewRestriction.LOGIN), id="login"),
        pytest.param(lambda page: restrict(page, PageViewRestriction.GROUPS), id="groups"),
    ],
)
def test_a_source_the_reader_cannot_see_is_not_named(client, digest_en, digest_zh, hide):
    hide(digest_en)
    # The translation takes the source's privacy (cms.translation.workflow.tree); an administrator
    # lifted it on the translation alone, so the source stays hidden and the translation not.
    PageViewRestriction.objects.filter(page=digest_zh).delete()

    for status in statuses(client, digest_zh):
        assert {key: status[key] for key in SOURCE_KEYS} == dict.fromkeys(SOURCE_KEYS)
        assert status["translated_revision_id"] == digest_zh.live_revision_id
