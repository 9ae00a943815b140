"""Starting a task from a request without ever holding the request.

With a broker the task goes to a worker once the request's transaction commits. Without one
(`make run`: no REDIS_URL, tasks "eager") a task called with `.delay()` would run inside the
request, for as long as the sources take; it runs instead in a daemon thread of this process,
started after the commit, with a database connection of its own that it closes at the end.
"""

from __future__ import annotations

import logging
import threading

from celery import Task
from django.conf import settings
from django.db import connection, transaction

logger = logging.getLogger(__name__)


def worker_configured() -> bool:
    """Whether a Celery worker takes tasks (a broker is configured), the one test of it."""
    return not settings.CELERY_TASK_ALWAYS_EAGER


def start_after_commit(task: Task, *args, **kwargs) -> bool:
    """Run `task(*args, **kwargs)` once the current transaction commits, never in this thread.

    True when a worker takes it, False when it runs in the background of this process.
    """
    if worker_configured():
        transaction.on_commit(lambda: task.delay(*args, **kwargs))
        return True
    thread = threading.Thread(
        target=_run_here, args=(task, args, kwargs), daemon=True, name=f"background-{task.name}"
    )
    transaction.on_commit(thread.start)
    return False


def _run_here(task: Task, args: tuple, kwargs: dict) -> None:
    try:
        task.apply(args=args, kwargs=kwargs, throw=True)
    except Exception:
        logger.exception("background task %s failed", task.name)
    finally:
        connection.close()
