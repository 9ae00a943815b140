"""Texts filled in automatically stay unreviewed until a translator saves them (issue 46.1).

After an English edit, "Update" pre-fills the changed segment with its previous Chinese. That
text must not be learnt by the translation memory (it pairs the new English with the old
Chinese) nor called "machine" by the API, and Update's "Publish immediately" must not put it
live unasked.
"""

import pytest
from django.urls import reverse
from django.utils.http import urlencode
from wagtail_localize.models import StringTranslation, Translation

from cms.digests.models import DigestPage
from cms.terminology import memory
from cms.translation.status.statuses import translation_status

pytestmark = pytest.mark.django_db

CHANGED_EN = "A changed English summary, not yet translated."
REVIEWED_ZH = "改寫後、已審閱的摘要。"


@pytest.fixture
def synced(client, translator, digest_en, digest_zh, django_capture_on_commit_callbacks):
    """The editor changed the English summary; the translator updated the translation, which
    pre-filled the summary with its previous Chinese. Returns the translation."""
    digest_en.summary = CHANGED_EN
    digest_en.save_revision().publish()
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )
    client.force_login(translator)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("wagtail_localize:update_translations", args=[translation.source_id]), {}
        )
    assert response.status_code == 302
    summary = StringTranslation.objects.get(
        locale=digest_zh.locale,
        context__object_id=digest_en.translation_key,
        context__path="summary",
        translation_of__data=CHANGED_EN,
    )
    assert summary.data == digest_zh.summary  # the old Chinese, pre-filled
    return translation


def publish(client, page, capture, **confirm) -> None:
    with capture(execute=True):
        response = client.post(
            reverse("wagtailadmin_pages:edit", args=[page.pk]), {"action": "publish", **confirm}
        )
    assert response.status_code == 302


def save_segment(client, translation, path: str, value: str):
    segment = translation.source.stringsegment_set.get(context__path=path)
    return client.put(
        reverse("wagtail_localize:edit_string_translation", args=[translation.pk, segment.pk]),
        data=urlencode({"value": value}),
        content_type="application/x-www-form-urlencoded",
    )


def test_the_memory_learns_only_reviewed_text(
    client, synced, digest_zh, zh_locale, django_capture_on_commit_callbacks
):
    old_zh = digest_zh.summary
    publish(client, digest_zh, django_capture_on_commit_callbacks, **{"confirm-unreviewed": "1"})
    assert DigestPage.objects.get(pk=digest_zh.pk).summary == old_zh  # it did go live

    # The new English paired with the old Chinese is no exact match for the next page.
    assert memory.exact_matches(zh_locale, [CHANGED_EN]) == {}

    # Once the translator saves (reviews) it and publishes, the memory has it.
    assert save_segment(client, synced, "summary", REVIEWED_ZH).status_code == 200
    publish(client, digest_zh, django_capture_on_commit_callbacks)
    assert memory.exact_matches(zh_locale, [CHANGED_EN])[CHANGED_EN].target == REVIEWED_ZH


def test_the_api_says_needs_review_not_machine(
    client, synced, digest_zh, django_capture_on_commit_callbacks
):
    publish(client, digest_zh, django_capture_on_commit_callbacks, **{"confirm-unreviewed": "1"})

    status = client.get(f"/api/v2/pages/{digest_zh.pk}/").json()["translation_status"]

    assert status["state"] == "needs_review"
    assert status["segments"]["machine"] == 1
    assert translation_status(digest_zh).state == "needs_review"

    assert save_segment(client, synced, "summary", REVIEWED_ZH).status_code == 200
    publish(client, digest_zh, django_capture_on_commit_callbacks)
    status = client.get(f"/api/v2/pages/{digest_zh.pk}/").json()["translation_status"]
    assert (status["state"], status["segments"]["machine"]) == ("up_to_date", 0)


def test_update_and_publish_leaves_prefilled_text_to_the_editor(
    client, translator, digest_en, digest_zh, django_capture_on_commit_callbacks
):
    """ "Publish immediately" in Update published the pre-filled Chinese unasked."""
    digest_en.summary = CHANGED_EN
    digest_en.save_revision().publish()
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )
    before = DigestPage.objects.get(pk=digest_zh.pk).live_revision_id
    client.force_login(translator)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("wagtail_localize:update_translations", args=[translation.source_id]),
            {"publish_translations": "on"},
            follow=True,
        )

    assert "review them in the translation editor" in response.content.decode()
    assert DigestPage.objects.get(pk=digest_zh.pk).live_revision_id == before


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", "Simplified Chinese 网络: write 網路 instead."),
        ("zh-hant", "簡體字「网络」請改為「網路」；"),  # noqa: RUF001
    ],
)
def test_saving_a_segment_with_simplified_characters_says_what_to_write(
    client, translator, synced, language, expected
):
    """Said when the segment is saved, on it, in the translator's language, with the
    Traditional form in Taiwan usage (網路, as the glossary wants; not 網絡); kept as a draft,
    which the guard will not publish."""
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(translator)
    profile.preferred_language = language
    profile.save()

    response = save_segment(client, synced, "summary", "新的网络摘要。")

    assert response.status_code == 200
    assert expected in response.json()["error"]
    saved = StringTranslation.objects.get(pk__isnull=False, data="新的网络摘要。")
    assert saved.translation_type == StringTranslation.TRANSLATION_TYPE_MANUAL

    clean = save_segment(client, synced, "summary", "新的網路摘要。")
    assert not clean.json()["error"]


def bulk_publish(client, page, capture):
    url = reverse("wagtail_bulk_action", args=["wagtailcore", "page", "publish"])
    with capture(execute=True):
        return client.post(f"{url}?id={page.pk}", {"include_descendants": ""})


def api_publish(client, page, capture):
    url = reverse("wagtailadmin_api:pages:action", kwargs={"pk": page.pk, "action_name": "publish"})
    with capture(execute=True):
        return client.post(url, content_type="application/json", data={})


@pytest.mark.parametrize("publish_on", [bulk_publish, api_publish], ids=["bulk", "admin-api"])
def test_paths_that_cannot_ask_refuse_texts_nobody_reviewed(
    client, synced, digest_zh, publish_on, django_capture_on_commit_callbacks
):
    """The page editor asks before publishing pre-filled texts; bulk publish and the admin API
    have no one to ask, so they leave such a page as it was, in the database and the API."""
    live_before = DigestPage.objects.get(pk=digest_zh.pk).live_revision_id

    publish_on(client, digest_zh, django_capture_on_commit_callbacks)

    assert DigestPage.objects.get(pk=digest_zh.pk).live_revision_id == live_before
    api = client.get(f"/api/v2/pages/{digest_zh.pk}/?fields=translation_status").json()
    assert api["translation_status"]["state"] == "out_of_date"

    # Once the translator has reviewed the text, the same path publishes it.
    assert save_segment(client, synced, "summary", REVIEWED_ZH).status_code == 200
    publish_on(client, digest_zh, django_capture_on_commit_callbacks)
    assert DigestPage.objects.get(pk=digest_zh.pk).summary == REVIEWED_ZH
