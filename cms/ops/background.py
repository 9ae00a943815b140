"""The one way to start a task outside a worker: never in the caller's thread.

With a broker the task goes to a worker (once the request's transaction commits, or after a
delay). Without one (`make run`: no REDIS_URL, tasks "eager") a task called with `.delay()`
would run inside the request, for as long as it takes; it runs instead in a daemon thread of
this process, with a database connection of its own that it closes at the end. Only tasks
running on a worker call `.delay()` themselves (tests/ops/test_one_way.py checks it).

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


def start(task: Task, *args, **kwargs) -> bool:
    """Run `task(*args, **kwargs)` now, never in this thread: True when a worker takes it, False
    when it runs in the background of this process (no worker, or the broker does not answer)."""
    if worker_configured() and send_to_worker(task, *args, **kwargs):
        return True
    run_in_background(task, args, kwargs)
    return False


def start_after_commit(task: Task, *args, **kwargs) -> bool:
    """`start(task, *args, **kwargs)` once the current transaction commits.

    True when a worker is to take it, False when it runs in the background of this process
    (also, after the commit, when the broker does not answer).
    """
    transaction.on_commit(lambda: start(task, *args, **kwargs))
    return worker_configured()


def start_later(task: Task, *args, delay: float, **kwargs) -> None:
    """Run `task(*args, **kwargs)` in `delay` seconds: through the broker with a countdown when
    a worker is configured, else in a timer thread of this process."""
    if worker_configured():
        task.apply_async(args, kwargs, countdown=delay)
        return
    timer = threading.Timer(delay, _run_in_thread, args=(task, args, kwargs))
    timer.daemon = True
    timer.start()


def run_in_background(task: Task, args: tuple, kwargs: dict) -> None:
    threading.Thread(
        target=_run_in_thread,
        args=(task, args, kwargs),
        daemon=True,
        name=f"background-{task.name}",
    ).start()


def run_here(task: Task, args: tuple, kwargs: dict) -> None:
    """Run `task` in this thread, a failure logged rather than raised: whoever started it has
    finished its own work (a publish, a save) and must not fail for it."""
    try:
        task.apply(args=args, kwargs=kwargs, throw=True)
    except Exception:
        logger.exception("background task %s failed", task.name)


def _run_in_thread(task: Task, args: tuple, kwargs: dict) -> None:
    try:
        run_here(task, args, kwargs)
    finally:
        connection.close()
