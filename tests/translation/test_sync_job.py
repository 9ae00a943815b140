"""Syncing many pages runs as a background job, never in the request."""

from unittest import mock

import pytest
from django.test import override_settings
from django.urls import reverse
from wagtail_localize.models import StringTranslation, TranslationSource

from cms.digests.models import DigestPage
from cms.translation import sync
from cms.translation.status import translation_statuses
from cms.translation.tasks import sync_translations_task

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_changed_digests():
    pages = list(DigestPage.objects.filter(locale__language_code="en").order_by("path")[:3])
    for page in pages:
        page.summary = f"Changed summary of {page.short_name}."
        page.save_revision().publish()
    return pages


def _zh(pages):
    return [page.get_translations().get(locale__language_code="zh-hant") for page in pages]


def test_sync_view_enqueues_one_job_and_returns(
    client, translator, three_changed_digests, django_capture_on_commit_callbacks
):
    client.force_login(translator)
    url = reverse("translation_sync_out_of_date")
    assert "3 translated pages are out of date" in client.get(url).content.decode()

    with (
        mock.patch.object(sync.background, "enqueue") as enqueue,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(url)

    assert response.status_code == 302
    enqueue.assert_called_once()
    func, _args, kwargs = enqueue.call_args.args
    assert func is sync.sync_translation_sources
    assert len(kwargs["source_ids"]) == 3 and kwargs["user_id"] == translator.pk
    # Nothing was synced inside the request.
    states = translation_statuses(_zh(three_changed_digests))
    assert {status.state for status in states.values()} == {"out_of_date"}


def test_the_job_syncs_and_keeps_unchanged_segments(three_changed_digests):
    ids = list(
        TranslationSource.objects.filter(
            object_id__in=[page.translation_key for page in three_changed_digests]
        ).values_list("pk", flat=True)
    )
    titles_before = StringTranslation.objects.filter(
        context__object_id__in=[p.translation_key for p in three_changed_digests],
        context__path="title",
    ).count()

    assert sync_translations_task.run(ids) == "synced 3, missing 0"

    statuses = translation_statuses(_zh(three_changed_digests))
    assert {(s.state, s.percent_translated) for s in statuses.values()} == {("incomplete", 50)}
    assert (
        StringTranslation.objects.filter(
            context__object_id__in=[p.translation_key for p in three_changed_digests],
            context__path="title",
        ).count()
        == titles_before
    )


@override_settings(REDIS_URL="redis://127.0.0.1:6379/0")
def test_with_a_broker_the_job_goes_to_celery(django_capture_on_commit_callbacks):
    with (
        mock.patch.object(sync_translations_task, "delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        sync.enqueue_translation_sync([1, 2], user_id=None)
    delay.assert_called_once_with(source_ids=[1, 2], user_id=None)


def test_missing_sources_are_reported_not_fatal():
    result = sync.sync_translation_sources(source_ids=[999_999])
    assert result.missing == [999_999] and result.synced == []
