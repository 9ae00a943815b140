"""Syncing many pages runs as a background job, never in the request."""

import json
from unittest import mock

import pytest
from django.test import override_settings
from django.urls import reverse
from wagtail_localize.models import StringTranslation, TranslationSource

from cms.digests.models import DigestPage
from cms.ops import background
from cms.translation.status.statuses import translation_statuses
from cms.translation.tasks import sync_translations_task
from cms.translation.workflow import sync
from tests.support.workers import wait_for

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
        mock.patch.object(background, "run_in_background") as run_in_background,
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = client.post(url)

    assert response.status_code == 302
    run_in_background.assert_called_once()
    task, args, kwargs = run_in_background.call_args.args
    assert task is sync_translations_task and args == ()
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
    zh_summaries = {page.pk: page.specific.summary for page in _zh(three_changed_digests)}

    assert sync_translations_task.run(ids) == "synced 3, missing 0"

    # The changed summary starts from its previous translation, marked for review.
    statuses = translation_statuses(_zh(three_changed_digests))
    assert {(s.state, s.percent_translated, s.machine_segments) for s in statuses.values()} == {
        ("needs_review", 100, 1)
    }
    for page in three_changed_digests:
        carried = StringTranslation.objects.get(
            context__object_id=page.translation_key,
            context__path="summary",
            translation_of__data=f"Changed summary of {page.short_name}.",
        )
        zh = page.get_translations().get(locale__language_code="zh-hant")
        assert carried.data == zh_summaries[zh.pk]
        assert carried.translation_type == StringTranslation.TRANSLATION_TYPE_MACHINE
        assert "previous translation" in carried.get_comment()
    assert (
        StringTranslation.objects.filter(
            context__object_id__in=[p.translation_key for p in three_changed_digests],
            context__path="title",
        ).count()
        == titles_before
    )


@override_settings(REDIS_URL="redis://127.0.0.1:6379/0", CELERY_TASK_ALWAYS_EAGER=False)
def test_with_a_broker_the_job_goes_to_celery(
    client, translator, three_changed_digests, django_capture_on_commit_callbacks
):
    client.force_login(translator)
    with (
        mock.patch.object(sync_translations_task, "delay") as delay,
        django_capture_on_commit_callbacks(execute=True),
    ):
        client.post(reverse("translation_sync_out_of_date"))
    delay.assert_called_once()
    assert len(delay.call_args.kwargs["source_ids"]) == 3
    assert delay.call_args.kwargs["user_id"] == translator.pk


def test_with_the_broker_down_the_sync_view_still_syncs(
    committed_seed, client, translator, three_changed_digests, unreachable_broker
):
    """The translator's request has committed: the job runs in a background thread of this
    process (cms.ops.background) instead of the request ending in an error page."""
    client.force_login(translator)
    response = client.post(reverse("translation_sync_out_of_date"))
    assert response.status_code == 302

    def synced():
        states = translation_statuses(_zh(three_changed_digests))
        return "out_of_date" not in {status.state for status in states.values()}

    wait_for(synced, 30, "the background sync")


def test_missing_sources_are_reported_not_fatal():
    result = sync.sync_translation_sources(source_ids=[999_999])
    assert result.missing == [999_999] and result.synced == []


def test_the_editor_offers_the_previous_translation_of_a_changed_segment(
    client, translator, three_changed_digests
):
    page = three_changed_digests[0]
    zh = page.get_translations().get(locale__language_code="zh-hant").specific
    source = TranslationSource.objects.get(object_id=page.translation_key)
    client.force_login(translator)

    client.post(reverse("wagtail_localize:update_translations", args=[source.pk]), {})

    html = client.get(reverse("wagtailadmin_pages:edit", args=[zh.pk])).content.decode()
    assert "Changed summary of" in html  # the new English
    assert json.dumps(zh.summary)[1:-1] in html  # offered the old translation to revise
    assert "previous translation" in html
    assert DigestPage.objects.get(pk=zh.pk).summary == zh.summary  # live text untouched
