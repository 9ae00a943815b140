"""Without a broker, deliveries run in the background of the process, never in the request;
beat's `deliver_due` sends what a lost message or a long retry left to its row."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import timezone

from cms.webhooks import deliveries, tasks
from cms.webhooks.models import EVENT_TYPES, Delivery, Endpoint
from tests.support.workers import wait_for
from tests.webhooks.receiver import Reply


@pytest.fixture
def committed_endpoint(committed_seed, receiver) -> Endpoint:
    found = Endpoint.objects.create(url=receiver.url, events=[kind for kind, _ in EVENT_TYPES])
    receiver.secrets.append(found.secret)
    return found


def test_an_admin_request_answers_before_the_receiver_does(client, committed_endpoint, receiver):
    client.force_login(get_user_model().objects.create_superuser("boss", "b@example.org", "pw"))
    receiver.replies = [Reply(500, delay=-1)]  # holds the first attempt, then fails it
    started = time.monotonic()
    response = client.post(reverse("webhook_endpoints:send_test", args=[committed_endpoint.pk]))
    assert response.status_code == 302 and time.monotonic() - started < 5
    wait_for(lambda: receiver.received, 20, "the background delivery")
    assert not Delivery.objects.filter(status=Delivery.Status.SUCCEEDED).exists()
    receiver.release.set()  # the 500 is retried in the background too
    delivery = wait_for(
        lambda: Delivery.objects.filter(status=Delivery.Status.SUCCEEDED).first(), 30, "delivery"
    )
    assert delivery.attempts == 2
    assert [r.webhook_id for r in receiver.payloads() and receiver.received] == [
        delivery.webhook_id
    ] * 2


def test_deliver_due_sends_overdue_rows_nobody_holds(endpoint, receiver, settings):
    past = timezone.now() - timedelta(seconds=settings.WEBHOOK_SWEEP_GRACE + 5)
    overdue = Delivery.objects.create(
        endpoint=endpoint,
        event_type="webhook.test",
        payload={"type": "webhook.test"},
        next_attempt_at=past,
    )
    held = Delivery.objects.create(
        endpoint=endpoint,
        event_type="webhook.test",
        payload={"type": "webhook.test"},
        next_attempt_at=past,
        leased_until=timezone.now() + timedelta(minutes=1),
    )
    fresh = Delivery.objects.create(
        endpoint=endpoint,
        event_type="webhook.test",
        payload={"type": "webhook.test"},
        next_attempt_at=timezone.now(),
    )
    assert deliveries.due_ids(limit=10) == [overdue.pk]
    assert tasks.deliver_due.delay().get() == "queued 1"  # no broker here: runs in-process
    assert [r.webhook_id for r in receiver.received] == [overdue.webhook_id]
    assert {held.pk, fresh.pk} == set(
        Delivery.objects.filter(status=Delivery.Status.PENDING).values_list("pk", flat=True)
    )
