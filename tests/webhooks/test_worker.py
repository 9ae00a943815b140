"""Webhooks through a real Celery worker on the real Redis broker (tests/support/workers.py).

The write happens in a separate process configured with the broker, as a web process would;
the worker subprocess delivers to the local receiver, which verifies every signature.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from cms.webhooks.models import EVENT_TYPES, Delivery, Endpoint
from tests.support.workers import ROOT, wait_for
from tests.webhooks.receiver import Reply

pytestmark = pytest.mark.integration

PUBLISH = (
    "from cms.digests.models import DigestPage; "
    "DigestPage.objects.get(locale__language_code='en', short_name='ByteScale')"
    ".save_revision().publish()"
)


@pytest.fixture
def endpoint(committed_seed, receiver) -> Endpoint:
    found = Endpoint.objects.create(url=receiver.url, events=[kind for kind, _ in EVENT_TYPES])
    receiver.secrets.append(found.secret)
    return found


def publish_elsewhere(pool) -> None:
    """Publish a page from another process that has the broker (as the web process does)."""
    subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", PUBLISH],
        cwd=ROOT,
        env=pool.env(),
        check=True,
        timeout=120,
    )


def test_the_worker_retries_through_500s_with_the_same_id(endpoint, receiver, worker_pool):
    receiver.replies = [Reply(500), Reply(502)]
    worker_pool.start(WEBHOOK_RETRY_DELAYS="0.3,0.3,0.3")
    publish_elsewhere(worker_pool)

    wait_for(lambda: len(receiver.received) >= 3, 60, "three attempts")
    delivery = wait_for(
        lambda: Delivery.objects.filter(status=Delivery.Status.SUCCEEDED).first(), 30, "success"
    )
    assert delivery.event_type == "page.published" and delivery.attempts == 3
    assert [r.verified["type"] for r in receiver.received] == ["page.published"] * 3
    assert {r.webhook_id for r in receiver.received} == {delivery.webhook_id}


def test_a_worker_killed_mid_delivery_is_followed_by_one_with_the_same_id(
    endpoint, receiver, worker_pool
):
    receiver.replies = [Reply(200, delay=-1)]  # the first request hangs until released
    env = {
        "WEBHOOK_TIMEOUT": "3",
        "WEBHOOK_LEASE_MARGIN": "0",
        "WEBHOOK_SWEEP_INTERVAL": "1",
        "WEBHOOK_SWEEP_GRACE": "0",
    }
    first = worker_pool.start(**env)
    publish_elsewhere(worker_pool)
    wait_for(lambda: receiver.received, 60, "the first attempt")
    worker_pool.kill(first)
    receiver.release.set()

    # As deploy/ runs them: beat's deliver_due hands the row out again once the dead worker's
    # lease runs out (the broker gives its unacknowledged message back only after its
    # visibility timeout, an hour in production).
    worker_pool.start(**env)
    worker_pool.start_beat(**env)
    wait_for(lambda: len(receiver.received) >= 2, 60, "the attempt after the kill")
    delivery = wait_for(
        lambda: Delivery.objects.filter(status=Delivery.Status.SUCCEEDED).first(), 30, "success"
    )
    assert delivery.attempts == 2
    assert [r.webhook_id for r in receiver.received] == [delivery.webhook_id] * 2
    assert all(r.verified for r in receiver.received)


def test_the_worker_honours_retry_after_and_retries_a_timeout(endpoint, receiver, worker_pool):
    receiver.replies = [Reply(429, headers={"Retry-After": "2"}), Reply(200, delay=3)]
    worker_pool.start(WEBHOOK_RETRY_DELAYS="0.2,0.2,0.2", WEBHOOK_TIMEOUT="1")
    publish_elsewhere(worker_pool)

    wait_for(lambda: len(receiver.received) >= 3, 60, "three attempts")
    delivery = wait_for(
        lambda: Delivery.objects.filter(status=Delivery.Status.SUCCEEDED).first(), 30, "success"
    )
    first, second, third = receiver.received[:3]
    assert second.at - first.at >= 2  # Retry-After, not the 0.2 s of the schedule
    assert third.at - second.at < 2 + 1  # the timed-out attempt was retried on schedule
    assert delivery.attempts == 3
    assert {r.webhook_id for r in receiver.received} == {delivery.webhook_id}
    assert all(r.verified for r in receiver.received)
