"""Thin Celery tasks: they take a delivery id, call the service and return a short status.

A task's message only says "look at delivery N"; the row says whether it is still owed
(cms.webhooks.deliveries), so a message the broker hands out twice, or again after its worker
was killed (acks_late, reject_on_worker_lost), sends at most one attempt at a time and always
with the row's webhook-id. When a retry runs is cms.webhooks.schedule's business.
"""

from __future__ import annotations

from celery import shared_task

from . import deliveries, schedule

TASK_OPTIONS = {"acks_late": True, "reject_on_worker_lost": True, "ignore_result": True}


@shared_task(name="cms.webhooks.tasks.deliver", **TASK_OPTIONS)
def deliver(delivery_id: int) -> str:
    """One attempt at delivery `delivery_id`, and the next one scheduled if it must retry."""
    outcome = deliveries.attempt(delivery_id)
    if outcome.retry_in is not None:
        schedule.later(deliver, delivery_id, outcome.retry_in)
    return outcome.status


@shared_task(name="cms.webhooks.tasks.deliver_due", **TASK_OPTIONS)
def deliver_due(limit: int = 500) -> str:
    """Send the deliveries whose next attempt is due and that nobody holds."""
    due = deliveries.due_ids(limit=limit)
    for pk in due:
        deliver.delay(pk)
    return f"queued {len(due)}"
