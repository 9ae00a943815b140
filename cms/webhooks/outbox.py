"""Events into delivery rows, in the writer's transaction; sent once it commits.

One row per event per endpoint that wants it. An editor's save writes a paper and its authors
as several writes; while a row for the same event and subject has not been attempted yet, a
later write merges into it (the newest data, the union of the changed URLs and fields), so a
save makes one delivery, not one per row written. Events of a write carry the changes feed's
cursor after it (`carrying`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from cms.apicache.changes import newer_cursor

from .models import TEST_EVENT, Delivery, Endpoint

CURSOR_KEY = "changes_cursor"


def envelope(event_type: str, data: dict[str, Any]) -> dict[str, Any]:
    """The Standard Webhooks payload shape: type, timestamp, data."""
    return {"type": event_type, "timestamp": timezone.now().isoformat(), "data": data}


def merged(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """`new`, keeping what `old` said changed (URLs; fields, unless either did not know) and
    the later of their changes feed cursors."""
    data = dict(new["data"])
    urls = old["data"].get("changed_urls", []) + data.get("changed_urls", [])
    data["changed_urls"] = list(dict.fromkeys(urls))
    if "fields" in data:
        before, now = old["data"].get("fields"), data["fields"]
        data["fields"] = None if before is None or now is None else sorted({*before, *now})
    cursor = newer_cursor(old["data"].get(CURSOR_KEY), data.get(CURSOR_KEY))
    if cursor is not None:
        data[CURSOR_KEY] = cursor
    return {**new, "data": data}


# The changes feed's cursor after the write being turned into events (cms.webhooks.events sets
# it around each write's events): a receiver that missed deliveries catches up from the last
# cursor it got (GET /api/v2/changes/?since=...).
_changes_cursor: ContextVar[Callable[[], str | None] | None] = ContextVar(
    "webhooks_changes_cursor", default=None
)


@contextmanager
def carrying(changes_cursor: Callable[[], str | None] | None) -> Iterator[None]:
    """Events enqueued inside the block carry `changes_cursor()` as `data.changes_cursor`."""
    token = _changes_cursor.set(changes_cursor)
    try:
        yield
    finally:
        _changes_cursor.reset(token)


def enqueue(
    event_type: str,
    subject: str,
    language_code: str | None,
    data: Callable[[], dict[str, Any] | None],
) -> None:
    """Store the event for every active endpoint that wants it; `data` is built only if one
    does, and returns None when there is no event to send after all (nothing public changed)."""
    endpoints = [
        e for e in Endpoint.objects.filter(active=True) if e.wants(event_type, language_code)
    ]
    if not endpoints:
        return
    found = data()
    if found is None:
        return
    changes_cursor = _changes_cursor.get()
    if changes_cursor is not None and CURSOR_KEY not in found:
        found[CURSOR_KEY] = changes_cursor()
    payload = envelope(event_type, found)
    created = []
    with transaction.atomic():
        for endpoint in endpoints:
            waiting = (
                Delivery.objects.select_for_update()
                .filter(
                    endpoint=endpoint,
                    event_type=event_type,
                    subject=subject,
                    status=Delivery.Status.PENDING,
                    attempts=0,
                    # never sent, even before a resend: its webhook-id is new to the receiver
                    last_attempt_at__isnull=True,
                )
                .first()
            )
            if waiting is not None:
                waiting.payload = merged(waiting.payload, payload)
                waiting.save(update_fields=["payload"])
                continue
            delivery = Delivery.objects.create(
                endpoint=endpoint,
                event_type=event_type,
                subject=subject,
                payload=payload,
                next_attempt_at=timezone.now(),
            )
            created.append(delivery.pk)
    for pk in created:
        send_after_commit(pk)


def enqueue_test_event(endpoint: Endpoint) -> Delivery:
    """A `webhook.test` delivery to `endpoint` (the admin's "Send test event")."""
    data = {"endpoint": {"id": endpoint.pk, "url": endpoint.url}, "message": "test event"}
    delivery = Delivery.objects.create(
        endpoint=endpoint,
        event_type=TEST_EVENT,
        subject=f"endpoint:{endpoint.pk}",
        payload=envelope(TEST_EVENT, data),
        next_attempt_at=timezone.now(),
    )
    send_after_commit(delivery.pk)
    return delivery


class DeliveryBusy(Exception):
    """An attempt holds the delivery (its lease has not run out): it is being sent now."""


def resend(delivery: Delivery) -> None:
    """Deliver again, with the same webhook-id and a fresh run of retries.

    Refused (DeliveryBusy, nothing changed) while an attempt holds the lease: clearing it would
    let a second attempt run alongside the first, and the receiver get the event twice.
    """
    now = timezone.now()
    free = Q(leased_until__isnull=True) | Q(leased_until__lte=now)
    reset = Delivery.objects.filter(free, pk=delivery.pk).update(
        status=Delivery.Status.PENDING,
        attempts=0,
        next_attempt_at=now,
        leased_until=None,
        error="",
    )
    if not reset:
        raise DeliveryBusy(delivery.pk)
    send_after_commit(delivery.pk)


def send_after_commit(delivery_id: int) -> None:
    from cms.ops.background import start_after_commit

    from .tasks import deliver

    start_after_commit(deliver, delivery_id)
