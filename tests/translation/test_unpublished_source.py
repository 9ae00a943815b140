"""A translation goes live only while its English page is live.

An English page can be unpublished (a digest withdrawn, perhaps under embargo again) after its
translation was started; the zh-hant draft keeps its text. Publishing that translation would
put on the public API, in Chinese, what English readers cannot see. (Submitting a page that is
not live for translation is refused outright: tests/translation/test_permission_matrix.py.)
"""

from urllib.parse import urlencode

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from wagtail_localize.models import StringSegment, Translation

from cms.digests.models import DigestPage
from tests.support.factories import DRAFT, DigestPageFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def english_draft(digest_en, editor):
    return DigestPageFactory(
        parent=digest_en.get_parent(),
        title="Embargoed results",
        slug="embargoed-results",
        short_name="Embargoed",
        reading_minutes=4,
        summary="Not announced yet.",
        locale=digest_en.locale,
        live=False,
        revision=DRAFT,
        revision__user=editor,
    )


def _started_then_unpublished(page: DigestPage, start_translation) -> Translation:
    """The translation of `page`, started while it was live; `page` is a draft again since."""
    page.get_latest_revision().publish()
    translation = start_translation(page)
    DigestPage.objects.get(pk=page.pk).unpublish()
    return translation


def _translate_everything(client, translation: Translation) -> None:
    for segment in StringSegment.objects.filter(source=translation.source):
        response = client.put(
            reverse("wagtail_localize:edit_string_translation", args=[translation.pk, segment.pk]),
            urlencode({"value": f"譯文{segment.pk}"}),
            content_type="application/x-www-form-urlencoded",
        )
        assert response.status_code in (200, 201)


def test_translation_of_an_english_draft_is_not_published(
    client, english_draft, start_translation, django_capture_on_commit_callbacks
):
    translation = _started_then_unpublished(english_draft, start_translation)  # as translator
    _translate_everything(client, translation)
    zh = translation.get_target_instance()

    with django_capture_on_commit_callbacks(execute=True):  # wagtail-localize publishes then
        response = client.post(
            reverse("wagtailadmin_pages:edit", args=[zh.pk]), {"action": "publish"}
        )

    zh.refresh_from_db()
    assert not zh.live
    assert any("not live" in str(m) for m in get_messages(response.wsgi_request))
    client.logout()
    assert client.get(f"/api/v2/pages/{zh.pk}/").status_code == 404
    listing = client.get("/api/v2/pages/", {"locale": "zh-hant", "slug": "embargoed-results"})
    assert listing.json()["meta"]["total_count"] == 0


def test_it_is_published_once_english_is(
    client, english_draft, start_translation, django_capture_on_commit_callbacks
):
    translation = _started_then_unpublished(english_draft, start_translation)
    _translate_everything(client, translation)
    english_draft.get_latest_revision().publish()
    zh = translation.get_target_instance()

    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("wagtailadmin_pages:edit", args=[zh.pk]), {"action": "publish"})

    zh.refresh_from_db()
    assert zh.live
    assert client.get(f"/api/v2/pages/{zh.pk}/").json()["title"].startswith("譯文")
