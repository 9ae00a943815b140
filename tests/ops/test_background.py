"""A task started after a commit runs somewhere even when the configured broker does not
answer: in a background thread of this process, as without a broker."""

import threading

import pytest

from cms.celery import app
from cms.ops.background import start_after_commit
from tests.support.workers import wait_for

ran: list[tuple[str, int]] = []


@app.task(name="tests.ops.record_where")
def record_where(number: int) -> None:
    ran.append((threading.current_thread().name, number))


@pytest.mark.django_db
def test_with_the_broker_down_the_task_runs_in_a_background_thread(
    unreachable_broker, django_capture_on_commit_callbacks
):
    ran.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert start_after_commit(record_where, 7) is True  # a worker was expected to take it
    finished = wait_for(lambda: ran, 10, "the task to run")
    assert finished == [("background-tests.ops.record_where", 7)]
