"""Every delivery carries the changes feed's cursor after its write, so a receiver that was
down catches up from the last cursor it got (`/api/v2/changes/?since=`)."""

from __future__ import annotations

import pytest

from cms.apicache import changes
from cms.digests.models import DigestPage
from cms.papers.models import PaperAuthor
from cms.webhooks import outbox
from cms.webhooks.models import Delivery
from tests.webhooks.conftest import deliver_pending

CHANGES = "/api/v2/changes/"


@pytest.fixture(autouse=True)
def views_themselves(uncached_api):
    """No response cache: its version moves on commit, which a rolled-back test never has."""


def digest(short_name: str, language: str = "en") -> DigestPage:
    return DigestPage.objects.get(locale__language_code=language, short_name=short_name)


def caught_up(client, cursor: str, locale: str = "en") -> dict[int, str]:
    answer = client.get(CHANGES, {"locale": locale, "since": cursor}).json()
    assert answer["meta"]["has_more"] is False
    return {item["id"]: item["action"] for item in answer["items"]}


def test_a_receiver_that_missed_events_catches_up_from_its_last_cursor(client, endpoint, receiver):
    seen = digest("ByteScale")
    seen.title = "ByteScale, revised"
    seen.save_revision().publish()
    assert deliver_pending() == ["delivered"]
    cursor = receiver.payloads()[0]["data"]["changes_cursor"]
    assert caught_up(client, cursor) == {}  # nothing after the event it got

    # The receiver is down: these deliveries never arrive.
    missed = digest("Odin")
    missed.unpublish()
    gone = digest("FabricPerf")
    gone_id = gone.pk
    gone.delete()

    found = caught_up(client, cursor)
    assert found[missed.pk] == "delete" and found[gone_id] == "delete"
    assert seen.pk not in found
    # The missed deliveries carry later cursors, in the order of their writes.
    later = [d.payload["data"]["changes_cursor"] for d in Delivery.objects.order_by("pk")[1:]]
    assert all(changes.newer_cursor(cursor, each) == each != cursor for each in later)
    assert caught_up(client, later[-1]) == {}


def test_a_cursor_from_a_page_event_works_for_either_language(client, endpoint, receiver):
    page = digest("ByteScale")
    page.save_revision().publish()
    assert deliver_pending() == ["delivered"]
    cursor = receiver.payloads()[0]["data"]["changes_cursor"]
    chinese = digest("Odin", "zh-hant")
    chinese.save_revision().publish()
    topic = chinese.get_parent().pk  # it lists its digests
    assert caught_up(client, cursor, "zh-hant") == {chinese.pk: "upsert", topic: "upsert"}


def test_paper_and_sync_events_carry_the_cursor_after_their_writes(
    client, endpoint, receiver, upstream
):
    from sync import tasks

    page = digest("ByteScale")
    start = changes.head_cursor()
    assert tasks.sync_paper.delay(page.paper_id).get() == "changed"
    assert deliver_pending() == ["delivered"] * Delivery.objects.count()
    by_type = {p["type"]: p["data"] for p in receiver.payloads()}
    updated, finished = by_type["paper.updated"], by_type["sync.finished"]
    assert caught_up(client, start) == {page.pk: "upsert"}
    assert caught_up(client, updated["changes_cursor"]) == {}
    assert finished["changes_cursor"] == changes.head_cursor()


def test_a_merged_delivery_keeps_the_later_write_s_cursor(client, endpoint, receiver):
    paper = digest("ByteScale").paper
    author = PaperAuthor.objects.create(paper=paper, name="Hao Ge", sort_order=0)
    first = Delivery.objects.get().payload["data"]["changes_cursor"]
    author.name = "Hao Ge (revised)"
    author.save()  # merged into the same delivery

    merged = Delivery.objects.get().payload["data"]["changes_cursor"]
    assert merged == changes.head_cursor() != first
    assert changes.newer_cursor(first, merged) == merged


def test_merging_never_goes_back_to_an_earlier_cursor():
    early = changes.encode_cursor(changes.Cursor("e", 3, changes.AFTER_WRITE))
    late = changes.encode_cursor(changes.Cursor("e", 9, changes.AFTER_WRITE))
    old = {"data": {"changed_urls": [], "changes_cursor": late}}
    new = {"data": {"changed_urls": [], "changes_cursor": early}}
    assert outbox.merged(old, new)["data"]["changes_cursor"] == late
    assert outbox.merged(new, old)["data"]["changes_cursor"] == late
    # A rebuilt log's cursor (another epoch) is the newer write's, whatever its number.
    rebuilt = changes.encode_cursor(changes.Cursor("f", 1, changes.AFTER_WRITE))
    assert (
        outbox.merged(old, {"data": {"changes_cursor": rebuilt}})["data"]["changes_cursor"]
        == rebuilt
    )
