"""When a retry runs: with a worker, through the broker; without one, in this process.

A retry due within WEBHOOK_ETA_MAX seconds goes to the broker with a countdown; a later one is
left to its row, which beat's `deliver_due` sends when due (long countdowns in a Redis broker
outlive its visibility timeout and come back twice). Without a broker (`make run`) a timer
thread of this process runs it, with its own database connection.
"""

from __future__ import annotations

import logging
import threading

from celery import Task
from django.conf import settings
from django.db import connection

from cms.ops.background import worker_configured

logger = logging.getLogger(__name__)


def later(task: Task, delivery_id: int, delay: float) -> None:
    """Run `task(delivery_id)` again in `delay` seconds."""
    if worker_configured():
        if delay <= settings.WEBHOOK_ETA_MAX:
            task.apply_async((delivery_id,), countdown=delay)
        return
    timer = threading.Timer(delay, run_here, args=(task, delivery_id))
    timer.daemon = True
    timer.start()


def run_here(task: Task, delivery_id: int) -> None:
    try:
        task.apply(args=(delivery_id,), throw=True)
    except Exception:
        logger.exception("webhook delivery %s failed", delivery_id)
    finally:
        connection.close()
