"""Pacing per source: spaced from when the last request left, in-process and through Redis."""

from __future__ import annotations

import itertools
import os
import threading
import time

import pytest

from sync import politeness
from sync.politeness import RateLimit, reset_pacing, slot_interval

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/1"


def test_the_interval_adds_the_margin_to_the_period():
    assert slot_interval("5/second") == pytest.approx(0.2)
    assert slot_interval("5/second", 0.05) == pytest.approx(0.21)
    assert slot_interval("60/minute", 0.05) == pytest.approx(60.05 / 60)


@pytest.fixture(params=["memory", "redis"])
def pace(request, settings):
    """RateLimits for a fresh source, kept in this process or (integration) in Redis."""
    if request.param == "redis":
        request.applymarker(pytest.mark.integration)
        settings.REDIS_URL = REDIS_URL
    politeness._redis.cache_clear()
    politeness._script.cache_clear()
    reset_pacing()
    source = f"paced-{request.param}-{time.monotonic_ns()}"  # no pace left from another test
    yield lambda: RateLimit(source, "10/second")
    politeness._redis.cache_clear()
    politeness._script.cache_clear()


def test_a_request_is_spaced_from_when_the_last_one_left(pace, settings):
    settings.SYNC_RATE_MARGIN = 0.05
    limit = pace()
    interval = limit.interval
    assert interval == pytest.approx(0.105)
    limit.acquire()
    time.sleep(0.3)  # held up between its turn and the socket (a busy machine)
    limit.sent()
    left = time.monotonic()
    pace().acquire()  # another process's client of the same source
    assert time.monotonic() - left >= interval - 0.005


def test_a_turn_not_yet_sent_holds_the_next_request(pace):
    first, second = pace(), pace()
    first.acquire()
    went: list[float] = []
    waiter = threading.Thread(target=lambda: (second.acquire(), went.append(time.monotonic())))
    waiter.start()
    time.sleep(0.4)
    assert not went  # still waiting: the first request has not left yet
    sent_at = time.monotonic()
    first.sent()
    waiter.join(timeout=5)
    assert went and went[0] - sent_at >= first.interval - 0.005


def test_back_to_back_requests_keep_the_limit(pace):
    limit = pace()
    times = []
    for _ in range(6):
        limit.acquire()
        times.append(time.monotonic())
        limit.sent()
    assert all(b - a >= limit.interval - 0.005 for a, b in itertools.pairwise(times))
