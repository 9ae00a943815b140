"""Starting a task from a request without ever holding the request.

With a broker the task goes to a worker once the request's transaction commits. Without one
(`make run`: no REDIS_URL, tasks "eager") a task called with `.delay()` would run inside the
request, for as long as the sources take; it runs instead in a daemon thread of this process,
started after the commit, with a database connection of its own that it closes at the end.

A broker that is configured but does not answer (Redis restarting) is the same case: the write
has committed, so the task runs here rather than turning the editor's save into an error page.
"""

from __future__ import annotations

import logging
import threading

from celery import Task
from django.conf import settings
from django.db import connection, transaction
from kombu.exceptions import OperationalError

logger = logging.getLogger(__name__)


def worker_configured() -> bool:
    """Whether a Celery worker takes tasks (a broker is configured), the one test of it."""
    return not settings.CELERY_TASK_ALWAYS_EAGER


def send_to_worker(task: Task, *args, **kwargs) -> bool:
    """Hand `task(*args, **kwargs)` to the workers; False (and logged) when the broker does not
    answer, for the caller to run it another way."""
    try:
        task.delay(*args, **kwargs)
    except OperationalError:
        logger.warning("the broker did not answer; %s runs in this process instead", task.name)
        return False
    return True


def start_after_commit(task: Task, *args, **kwargs) -> bool:
    """Run `task(*args, **kwargs)` once the current transaction commits, never in this thread.

    True when a worker is to take it, False when it runs in the background of this process
    (also, after the commit, when the broker does not answer).
    """
    if worker_configured():
        transaction.on_commit(
            lambda: send_to_worker(task, *args, **kwargs) or run_in_background(task, args, kwargs)
        )
        return True
    transaction.on_commit(lambda: run_in_background(task, args, kwargs))
    return False


def run_in_background(task: Task, args: tuple, kwargs: dict) -> None:
    threading.Thread(
        target=_run_here, args=(task, args, kwargs), daemon=True, name=f"background-{task.name}"
    ).start()


def _run_here(task: Task, args: tuple, kwargs: dict) -> None:
    try:
        task.apply(args=args, kwargs=kwargs, throw=True)
    except Exception:
        logger.exception("background task %s failed", task.name)
    finally:
        connection.close()
