"""A zh-hant page an administrator deletes stops being a translation on every screen.

wagtail-localize removes the page's Translation records when it is deleted (its post_delete
handler, WAGTAILLOCALIZE_DISABLE_ON_DELETE unset), so sync, the status report, the queue and a
new translation all see an English page with no zh-hant version, never a missing target.
"""

import pytest
from django.urls import reverse
from wagtail_localize.models import Translation

from cms.translation.status.statuses import translation_statuses
from cms.translation.workflow.queue import NOT_TRANSLATED, queue_state
from cms.translation.workflow.sync import sync_translation_sources

pytestmark = pytest.mark.django_db


@pytest.fixture
def deleted_zh(client, admin_user, digest_en, digest_zh):
    """The English digest changed; the administrator deletes its zh-hant page in the admin."""
    digest_en.summary = "Changed after the zh-hant page was deleted."
    digest_en.save_revision().publish()
    sources = list(
        Translation.objects.filter(source__object_id=digest_en.translation_key).values_list(
            "source_id", flat=True
        )
    )
    client.force_login(admin_user)
    response = client.post(reverse("wagtailadmin_pages:delete", args=[digest_zh.pk]))
    assert response.status_code == 302
    assert not digest_en.get_translations().exists()
    return sources


def test_no_translation_into_the_deleted_page_is_left_enabled(deleted_zh, digest_en):
    assert not Translation.objects.filter(
        source__object_id=digest_en.translation_key, enabled=True
    ).exists()


def test_syncing_does_not_fail_or_bring_the_page_back(client, deleted_zh, digest_en, zh_locale):
    for source_id in deleted_zh:
        url = reverse("wagtail_localize:update_translations", args=[source_id])
        assert client.get(url).status_code in (200, 404)
    result = sync_translation_sources(source_ids=deleted_zh)
    assert result.synced == []
    sync_page = client.get(reverse("translation_sync_out_of_date"))
    assert sync_page.status_code == 200
    assert not digest_en.get_translations().filter(locale=zh_locale).exists()


def test_report_and_queue_offer_a_new_translation(client, translator, deleted_zh, digest_en):
    assert translation_statuses([digest_en]) == {}
    assert queue_state(digest_en) == NOT_TRANSLATED
    report = client.get(reverse("translation_status_report"))
    assert report.status_code == 200
    assert digest_en.title in report.content.decode()

    client.force_login(translator)
    assert client.get(reverse("translation_queue")).status_code == 200
    response = client.post(reverse("translation_queue_open", args=[digest_en.pk]))
    assert response.status_code == 302
    assert Translation.objects.get(
        source__object_id=digest_en.translation_key, enabled=True
    ).get_target_instance()
