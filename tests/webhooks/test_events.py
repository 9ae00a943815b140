"""One test per event kind: a real write, delivered to a local receiver that verifies the
Standard Webhooks signature; the changed URLs are the read path's map's (cms.apicache.stale)."""

from __future__ import annotations

from urllib.parse import urljoin

from django.conf import settings
from wagtail.models import Locale

from cms.apicache import stale
from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper, PaperAuthor
from cms.papers.signals import papers_changed
from cms.webhooks.models import Delivery
from tests.support.notices import CORRECTION, RETRACTION, add_notice, as_api
from tests.webhooks.conftest import deliver_pending

API = "http://testserver/api/v2/"


def digest(short_name: str = "ByteScale", language: str = "en") -> DigestPage:
    return DigestPage.objects.get(locale__language_code=language, short_name=short_name)


def only_event(receiver, event_type: str) -> dict:
    assert deliver_pending() == ["delivered"] * Delivery.objects.count()
    payloads = [p for p in receiver.payloads() if p["type"] == event_type]
    assert len(payloads) == 1, [p["type"] for p in receiver.payloads()]
    return payloads[0]["data"]


def test_page_published_names_the_page_and_what_to_revalidate(endpoint, receiver):
    page = digest()
    page.title = "ByteScale, revised"
    page.save_revision().publish()

    data = only_event(receiver, "page.published")
    assert data["page"]["id"] == page.pk
    assert data["page"]["title"] == "ByteScale, revised"
    assert data["page"]["locale"] == "en"
    assert data["page"]["type"] == "digests.DigestPage"
    assert data["page"]["detail_url"] == f"{API}pages/{page.pk}/"
    assert data["page"]["html_url"] == page.get_full_url()
    assert data["changed_urls"] == stale.changed_urls(stale.Write(stale.PUBLISH, page=page))
    assert f"{API}pages/?locale=en" in data["changed_urls"]
    assert f"{API}pages/{page.get_parent().pk}/" in data["changed_urls"]  # its topic lists it


def test_translation_published_names_the_translation_and_its_source(endpoint, receiver):
    source = digest()
    translation = digest(language="zh-hant")
    translation.save_revision().publish()

    data = only_event(receiver, "translation.published")
    assert data["page"]["id"] == translation.pk and data["page"]["locale"] == "zh-hant"
    assert data["page"]["html_url"] == translation.get_full_url()
    assert "/zh-hant/" in data["page"]["html_url"]
    assert data["source_page"]["id"] == source.pk
    assert f"{API}pages/?locale=zh-hant" in data["changed_urls"]


def test_page_unpublished(endpoint, receiver):
    page = digest()
    expected = stale.changed_urls(stale.Write(stale.UNPUBLISH, page=page))
    page.unpublish()

    data = only_event(receiver, "page.unpublished")
    assert data["page"]["id"] == page.pk
    assert set(expected) <= set(data["changed_urls"])


def test_page_deleted_still_names_its_parent_to_revalidate(endpoint, receiver):
    page = digest()
    parent_url = f"{API}pages/{page.get_parent().pk}/"
    pk, title = page.pk, page.title
    page.delete()

    data = only_event(receiver, "page.deleted")
    assert data["page"]["id"] == pk and data["page"]["title"] == title
    assert parent_url in data["changed_urls"] and f"{API}pages/{pk}/" in data["changed_urls"]


def test_page_moved_names_both_parents(endpoint, receiver):
    page = digest()
    old_parent = page.get_parent()
    new_parent = TopicPage.objects.filter(locale=page.locale).exclude(pk=old_parent.pk).first()
    translation = page.get_translation(Locale.objects.get(language_code="zh-hant"))
    page.move(new_parent, pos="last-child")

    assert deliver_pending() == ["delivered"] * Delivery.objects.count()
    moved = {
        p["data"]["page"]["id"]: p["data"] for p in receiver.payloads() if p["type"] == "page.moved"
    }
    assert set(moved) == {page.pk, translation.pk}  # the translation follows (translation.tree)
    data = moved[page.pk]
    assert data["old_parent_id"] == old_parent.pk
    assert f"{API}pages/{old_parent.pk}/" in data["changed_urls"]
    assert f"{API}pages/{new_parent.pk}/" in data["changed_urls"]


def test_paper_updated_by_an_editor_names_the_field_and_the_digests(endpoint, receiver):
    page = digest()
    paper = page.paper
    author = PaperAuthor.objects.create(paper=paper, name="Hao Ge", sort_order=0)
    author.name = "Hao Ge (revised)"
    author.save()  # two writes before the commit: still one delivery

    data = only_event(receiver, "paper.updated")
    assert data["paper"]["id"] == paper.pk and data["paper"]["title"] == paper.title
    assert data["fields"] == ["authors"]
    shown = {d["id"] for d in data["digests"]}
    assert shown == set(DigestPage.objects.live().filter(paper=paper).values_list("pk", flat=True))
    assert {d["locale"] for d in data["digests"]} == {"en", "zh-hant"}
    assert urljoin(API, f"papers/{paper.pk}/") in data["changed_urls"]
    assert f"{API}pages/{page.pk}/" in data["changed_urls"]


def test_a_sync_sends_paper_updated_with_its_fields_and_sync_finished(endpoint, receiver, upstream):
    from sync import tasks
    from sync.models import PaperChange, SyncRun

    paper = digest().paper
    assert tasks.sync_paper.delay(paper.pk).get() == "changed"

    run = SyncRun.objects.get()
    assert deliver_pending() == ["delivered"] * Delivery.objects.count()
    by_type = {p["type"]: p["data"] for p in receiver.payloads()}
    changed = sorted(set(PaperChange.objects.filter(run=run).values_list("field", flat=True)))
    assert by_type["paper.updated"]["paper"]["id"] == paper.pk
    assert by_type["paper.updated"]["fields"] == changed
    finished = by_type["sync.finished"]
    assert finished["run"]["id"] == run.pk and finished["run"]["status"] == "finished"
    assert finished["run"]["papers_changed"] == 1
    assert finished["paper_ids"] == [paper.pk]
    assert urljoin(API, f"papers/{paper.pk}/") in finished["changed_urls"]


def test_the_language_filter_sends_only_that_languages_page_events(endpoint, receiver):
    endpoint.locale = Locale.objects.get(language_code="zh-hant")
    endpoint.save()
    digest().save_revision().publish()
    digest(language="zh-hant").save_revision().publish()

    assert deliver_pending() == ["delivered"]
    assert [p["data"]["page"]["locale"] for p in receiver.payloads()] == ["zh-hant"]


def test_no_endpoint_no_delivery_and_inactive_endpoints_get_nothing(endpoint, receiver):
    endpoint.active = False
    endpoint.save()
    digest().save_revision().publish()
    assert not Delivery.objects.exists()
    assert settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES  # the receiver is on 127.0.0.1


def test_the_webhook_and_the_cdn_purge_get_the_same_urls(
    endpoint, receiver, settings, django_capture_on_commit_callbacks
):
    from wagtail.contrib.frontend_cache.utils import PurgeBatch

    from tests.ops import purge_recorder

    settings.WAGTAILFRONTENDCACHE = {
        "recording": {"BACKEND": "tests.ops.purge_recorder.RecordingBackend"}
    }
    purge_recorder.purged_urls.clear()
    page = digest()
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        page.unpublish()
    for callback in callbacks:
        if isinstance(getattr(callback, "__self__", None), PurgeBatch):
            callback()  # the CDN purge only; the delivery is attempted below
    data = only_event(receiver, "page.unpublished")
    assert purge_recorder.purged_urls
    assert sorted(data["changed_urls"]) == sorted(set(purge_recorder.purged_urls))
    purge_recorder.purged_urls.clear()


def test_a_new_event_is_not_merged_into_a_resent_delivery(endpoint, receiver):
    """A resent delivery keeps the webhook-id the receiver has already seen (and deduplicates
    on): a later publish merged into it would be dropped there as a repeat."""
    from cms.webhooks import outbox

    page = digest()
    page.save_revision().publish()
    assert deliver_pending() == ["delivered"]
    first = Delivery.objects.get()
    outbox.resend(first)

    page.title = "ByteScale, revised"
    page.save_revision().publish()

    assert Delivery.objects.count() == 2
    assert deliver_pending() == ["delivered", "delivered"]
    ids = [r.webhook_id for r in receiver.received]
    assert ids[1] == first.webhook_id and ids[2] != first.webhook_id
    assert receiver.payloads()[2]["data"]["page"]["title"] == "ByteScale, revised"


def test_paper_updated_with_notices_says_retracted_and_the_updates(endpoint, receiver):
    """A sync that stored a retraction announces `fields` with "notices", and the paper's
    `retracted` and `updates` as the papers API shows them."""
    paper = digest().paper
    add_notice(paper, CORRECTION)
    add_notice(paper, RETRACTION)
    papers_changed.send(sender=Paper, paper_ids=[paper.pk], fields={paper.pk: ["notices"]})

    data = only_event(receiver, "paper.updated")
    assert data["fields"] == ["notices"]
    assert data["paper"]["retracted"] is True
    assert data["paper"]["updates"] == [as_api(CORRECTION), as_api(RETRACTION)]
    assert urljoin(API, f"papers/{paper.pk}/") in data["changed_urls"]


def test_paper_updated_without_notices_carries_no_standing(endpoint, receiver):
    paper = digest().paper
    add_notice(paper, RETRACTION)
    papers_changed.send(sender=Paper, paper_ids=[paper.pk], fields={paper.pk: ["title"]})

    data = only_event(receiver, "paper.updated")
    assert data["fields"] == ["title"]
    assert "retracted" not in data["paper"] and "updates" not in data["paper"]
