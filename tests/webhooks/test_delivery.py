"""Delivery attempts against a real local receiver: signatures, retries (500, 429 with
Retry-After, a timeout), rotation, failing endpoints, unsafe URLs. Each attempt is the worker's
service called here; tests/webhooks/test_worker.py runs the same through a real worker."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from django.core import mail
from django.utils import timezone

from cms.webhooks import deliveries, outbox
from cms.webhooks.models import Delivery
from tests.webhooks.receiver import Reply


@pytest.fixture
def delivery(endpoint) -> Delivery:
    return outbox.enqueue_test_event(endpoint)


def wait_until_due(delivery: Delivery) -> None:
    delivery.refresh_from_db()
    time.sleep(max(0.0, (delivery.next_attempt_at - timezone.now()).total_seconds()))


def test_a_delivery_is_signed_per_standard_webhooks(delivery, receiver):
    assert deliveries.attempt(delivery.pk).status == "delivered"
    (request,) = receiver.received
    assert request.verified["type"] == "webhook.test"  # verified with the endpoint's secret
    assert request.webhook_id == delivery.webhook_id
    assert abs(int(request.headers["webhook-timestamp"]) - time.time()) < 5
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.SUCCEEDED
    assert (delivery.attempts, delivery.response_code) == (1, 200)
    assert delivery.duration_ms is not None and delivery.response_excerpt == "ok"


def test_500s_are_retried_with_the_same_id_until_delivered(delivery, receiver, settings):
    settings.WEBHOOK_RETRY_DELAYS = [0.5, 0.5]
    receiver.replies = [Reply(500, body="x" * 5000), Reply(503)]
    first = deliveries.attempt(delivery.pk)
    assert first.status == "retry" and first.retry_in == settings.WEBHOOK_RETRY_DELAYS[0]
    delivery.refresh_from_db()
    assert delivery.response_code == 500 and len(delivery.response_excerpt) == 500  # an excerpt
    assert deliveries.attempt(delivery.pk).status == "not-due"  # not before its time
    wait_until_due(delivery)
    assert deliveries.attempt(delivery.pk).status == "retry"
    wait_until_due(delivery)
    assert deliveries.attempt(delivery.pk).status == "delivered"

    assert [r.verified is not None for r in receiver.received] == [True] * 3
    assert {r.webhook_id for r in receiver.received} == {delivery.webhook_id}
    delivery.refresh_from_db()
    assert (delivery.status, delivery.attempts) == (Delivery.Status.SUCCEEDED, 3)


def test_429_waits_as_long_as_retry_after_says(delivery, receiver, settings):
    receiver.replies = [Reply(429, headers={"Retry-After": "2"})]
    outcome = deliveries.attempt(delivery.pk)
    assert outcome.status == "retry" and outcome.retry_in == 2 > settings.WEBHOOK_RETRY_DELAYS[0]
    delivery.refresh_from_db()
    assert delivery.next_attempt_at >= timezone.now() + timedelta(seconds=1.5)
    time.sleep(settings.WEBHOOK_RETRY_DELAYS[0] + 0.1)  # the usual delay is not enough
    assert deliveries.attempt(delivery.pk).status == "not-due"
    assert len(receiver.received) == 1
    wait_until_due(delivery)
    assert deliveries.attempt(delivery.pk).status == "delivered"
    assert receiver.received[1].at - receiver.received[0].at >= 2


def test_a_timeout_is_retried(delivery, receiver, settings):
    receiver.replies = [Reply(200, delay=settings.WEBHOOK_TIMEOUT + 1)]
    assert deliveries.attempt(delivery.pk).status == "retry"
    delivery.refresh_from_db()
    assert delivery.response_code is None and "Timed out" in delivery.error
    wait_until_due(delivery)
    assert deliveries.attempt(delivery.pk).status == "delivered"
    assert {r.webhook_id for r in receiver.received} == {delivery.webhook_id}


def test_a_refused_connection_is_retried_and_named_as_such(delivery, receiver):
    receiver.stop()  # nothing listens on its port now

    assert deliveries.attempt(delivery.pk).status == "retry"

    delivery.refresh_from_db()
    assert delivery.response_code is None
    assert delivery.error == "Could not connect: Connection refused."


def test_an_answer_that_stalls_after_its_headers_times_out_too(delivery, receiver, settings):
    receiver.replies = [Reply(200, body_delay=settings.WEBHOOK_TIMEOUT + 1)]
    assert deliveries.attempt(delivery.pk).status == "retry"
    delivery.refresh_from_db()
    assert "Timed out" in delivery.error and delivery.leased_until is None


def test_other_client_errors_fail_at_once(delivery, receiver):
    receiver.replies = [Reply(410, body="gone")]
    assert deliveries.attempt(delivery.pk).status == "failed"
    delivery.refresh_from_db()
    assert (delivery.status, delivery.response_code) == (Delivery.Status.FAILED, 410)


def test_retries_stop_after_the_schedule_and_count_against_the_endpoint(
    delivery, receiver, settings
):
    settings.WEBHOOK_RETRY_DELAYS = [0.05] * 4  # five attempts in all
    receiver.replies = [Reply(500)] * 10
    outcomes = []
    for _attempt in range(5):
        wait_until_due(delivery)
        outcomes.append(deliveries.attempt(delivery.pk).status)
    assert outcomes == ["retry"] * 4 + ["failed"]
    assert len(receiver.received) == 5
    delivery.endpoint.refresh_from_db()
    assert delivery.endpoint.consecutive_failures == 1 and delivery.endpoint.active


def test_an_endpoint_that_keeps_failing_is_disabled_and_admins_emailed(
    endpoint, receiver, settings, django_user_model, django_capture_on_commit_callbacks
):
    settings.WEBHOOK_RETRY_DELAYS = []
    settings.WEBHOOK_DISABLE_AFTER_FAILURES = 2
    django_user_model.objects.create_superuser("boss", "boss@example.org", "pw")
    receiver.replies = [Reply(500)] * 2
    with django_capture_on_commit_callbacks(execute=False):
        first, second = (outbox.enqueue_test_event(endpoint) for _ in range(2))
        third = Delivery.objects.create(endpoint=endpoint, event_type="sync.finished", payload={})
    assert deliveries.attempt(first.pk).status == "failed"
    endpoint.refresh_from_db()
    assert endpoint.active
    with django_capture_on_commit_callbacks(execute=True):
        assert deliveries.attempt(second.pk).status == "failed"
    endpoint.refresh_from_db()
    assert not endpoint.active and "2 deliveries in a row failed" in endpoint.disabled_reason
    assert mail.outbox[0].to == ["boss@example.org"] and endpoint.url in mail.outbox[0].subject
    assert deliveries.attempt(third.pk).status == "failed"  # no event is sent (a test event is)
    assert len(receiver.received) == 2


def test_a_rotated_secret_signs_with_both_until_the_overlap_ends(delivery, receiver):
    endpoint = delivery.endpoint
    old = endpoint.secret
    new = endpoint.rotate_secret(timedelta(hours=1))
    assert new != old
    receiver.secrets = [new]  # a receiver that already has the new secret
    assert deliveries.attempt(delivery.pk).status == "delivered"
    receiver.secrets = [old]  # and one that still has the old one
    outbox.resend(delivery)
    assert deliveries.attempt(delivery.pk).status == "delivered"
    assert all(r.verified for r in receiver.received)
    assert len(receiver.received[0].headers["webhook-signature"].split(" ")) == 2

    endpoint.previous_secret_until = timezone.now() - timedelta(seconds=1)
    endpoint.save()
    outbox.resend(delivery)
    deliveries.attempt(delivery.pk)
    assert receiver.received[-1].verified is None  # the old secret signs no more
    assert len(receiver.received[-1].headers["webhook-signature"].split(" ")) == 1


def test_resend_sends_the_same_webhook_id_again(delivery, receiver):
    deliveries.attempt(delivery.pk)
    outbox.resend(delivery)
    assert deliveries.attempt(delivery.pk).status == "delivered"
    assert [r.webhook_id for r in receiver.received] == [delivery.webhook_id] * 2


def test_a_killed_attempts_lease_keeps_others_off_until_it_runs_out(delivery, receiver):
    claimed = deliveries.claim(delivery.pk)  # an attempt whose worker then died
    assert isinstance(claimed, Delivery)
    busy = deliveries.attempt(delivery.pk)
    assert busy.status == "busy" and 0 < busy.retry_in <= deliveries.lease_seconds()
    time.sleep(busy.retry_in)
    assert deliveries.attempt(delivery.pk).status == "delivered"
    assert [r.webhook_id for r in receiver.received] == [delivery.webhook_id]


def test_resend_is_refused_while_an_attempt_holds_the_delivery(delivery, receiver):
    assert isinstance(deliveries.claim(delivery.pk), Delivery)  # an attempt under way
    before = Delivery.objects.filter(pk=delivery.pk).values().get()
    with pytest.raises(outbox.DeliveryBusy):
        outbox.resend(delivery)
    assert Delivery.objects.filter(pk=delivery.pk).values().get() == before
    assert deliveries.attempt(delivery.pk).status == "busy"  # no second attempt alongside
    assert receiver.received == []


def test_an_attempt_that_lost_the_delivery_settles_nothing(delivery, receiver, settings):
    settings.WEBHOOK_DISABLE_AFTER_FAILURES = 1
    first = deliveries.claim(delivery.pk)  # an attempt that stalls past its lease
    Delivery.objects.filter(pk=delivery.pk).update(leased_until=timezone.now())
    outbox.resend(delivery)  # the lease ran out: allowed, a fresh round of retries
    second = deliveries.claim(delivery.pk)
    assert isinstance(second, Delivery) and second.attempts == first.attempts == 1

    outcome = deliveries.settle(first, deliveries.Answer(410, 5, "gone"), retry=True)
    assert outcome.status == "superseded"
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.PENDING  # still the second attempt's
    assert delivery.leased_until == second.leased_until and delivery.response_code is None
    delivery.endpoint.refresh_from_db()
    assert delivery.endpoint.consecutive_failures == 0 and delivery.endpoint.active

    assert deliveries.settle(second, deliveries.Answer(200, 5, "ok"), retry=True).status == (
        "delivered"
    )
    delivery.refresh_from_db()
    assert (delivery.status, delivery.response_code) == (Delivery.Status.SUCCEEDED, 200)
