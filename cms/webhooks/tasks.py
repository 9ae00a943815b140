"""Thin Celery tasks: they take a delivery id, call the service and return a short status.

A task's message only says "look at delivery N"; the row says whether it is still owed
(cms.webhooks.deliveries), so a message the broker hands out twice, or again after its worker
was killed (acks_late, reject_on_worker_lost), sends at most one attempt at a time and always
with the row's webhook-id.

A retry due within WEBHOOK_ETA_MAX seconds goes to the broker with a countdown; a later one is
left to its row, which beat's `deliver_due` sends when due (long countdowns in a Redis broker
outlive its visibility timeout and come back twice). Without a broker (`make run`) a timer
thread of this process runs it (cms.ops.background).
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from cms.ops import background

from . import deliveries

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="cms.webhooks.tasks.deliver", **TASK_OPTIONS)
def deliver(delivery_id: int) -> str:
    """One attempt at delivery `delivery_id`, and the next one scheduled if it must retry."""
    outcome = deliveries.attempt(delivery_id)
    if outcome.retry_in is not None and (
        outcome.retry_in <= settings.WEBHOOK_ETA_MAX or not background.worker_configured()
    ):
        background.start_later(deliver, delivery_id, delay=outcome.retry_in)
    return outcome.status


@shared_task(name="cms.webhooks.tasks.deliver_due", **TASK_OPTIONS)
def deliver_due(limit: int = 500) -> str:
    """Send the deliveries whose next attempt is due and that nobody holds."""
    due = deliveries.due_ids(limit=limit)
    for pk in due:
        deliver.delay(pk)
    return f"queued {len(due)}"
