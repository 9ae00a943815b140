"""Pacing per source, in-process and through Redis: counted from when requests really left, an
even schedule, and the slots a late request missed given to the ones after it within the window."""

from __future__ import annotations

import itertools
import os
import random
import threading
import time

import pytest

from sync import politeness
from sync.errors import SourceError
from sync.politeness import RateLimit, reset_pacing, slot_interval
from tests.standin.server import busiest_window

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
    yield lambda limit="10/second": RateLimit(source, limit)
    politeness._redis.cache_clear()
    politeness._script.cache_clear()


def test_a_request_is_spaced_from_when_the_last_one_left(pace, settings):
    settings.SYNC_RATE_MARGIN = 0.05
    limit = pace()
    interval = limit.interval
    assert interval == pytest.approx(0.105)
    turn = limit.acquire()
    time.sleep(0.3)  # held up between its turn and the socket (a busy machine)
    limit.sent(turn)
    left = time.monotonic()
    pace().acquire()  # another process's client of the same source
    assert time.monotonic() - left >= interval - 0.005


def test_a_turn_not_yet_sent_holds_the_next_request(pace):
    first, second = pace(), pace()
    turn = first.acquire()
    went: list[float] = []
    waiter = threading.Thread(target=lambda: (second.acquire(), went.append(time.monotonic())))
    waiter.start()
    time.sleep(0.4)
    assert not went  # still waiting: the first request has not left yet
    sent_at = time.monotonic()
    first.sent(turn)
    waiter.join(timeout=5)
    assert went and went[0] - sent_at >= first.interval - 0.005


def _send(limit: RateLimit, times: list[float]) -> None:
    turn = limit.acquire()
    times.append(time.monotonic())
    limit.sent(turn)


def test_back_to_back_requests_keep_the_limit(pace):
    """Six in a row span at least five slots, and none follows the one before by less than half
    a slot (the nearest a caught-up slot may come). Both hold however late a turn is reported
    sent, so a busy machine cannot fail this: times are taken when `acquire()` returned."""
    limit = pace()
    times: list[float] = []
    for _ in range(6):
        _send(limit, times)
    assert times[-1] - times[0] >= 5 * limit.interval - 0.005
    assert min(b - a for a, b in itertools.pairwise(times)) >= limit.least_gap - 0.005


def test_a_late_request_gives_the_slots_it_missed_to_the_next_ones(pace, settings):
    settings.SYNC_RATE_MARGIN = 0.05
    limit = pace("5/second")
    slot = limit.interval  # 0.21 s: 5 in any 1.05 s
    times: list[float] = []
    for _ in range(3):
        _send(limit, times)
    time.sleep(0.5)  # the sender was busy elsewhere (a batch writing its papers)
    for _ in range(5):
        _send(limit, times)
    # Spaced from the late one, the last request would leave 0.5 + 4 slots after the third
    # (1.76 s after the first); given the slots missed, it leaves on the even schedule (1.47 s).
    elapsed = times[-1] - times[0]
    assert 7 * slot - 0.01 <= elapsed <= 0.5 + 6 * slot - 0.12
    assert busiest_window(times, 1.0) <= 5
    assert min(b - a for a, b in itertools.pairwise(times)) >= slot / 2 - 0.005


def test_no_window_holds_more_than_the_limit_whatever_the_senders_do(pace, settings):
    settings.SYNC_RATE_MARGIN = 0.05
    times: list[float] = []

    def sender(seed: int) -> None:
        limit, stalls = pace("5/second"), random.Random(seed)
        for _ in range(7):
            time.sleep(stalls.choice([0, 0, 0.05, 0.3, 0.6]))
            _send(limit, times)

    time.sleep(0.01)
    threads = [threading.Thread(target=sender, args=(seed,)) for seed in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    time.sleep(1.5)  # idle: the source saves up no more than one window's worth
    limit = pace("5/second")
    for _ in range(7):
        _send(limit, times)
    assert len(times) == 21
    assert busiest_window(times, 1.0) <= 5
    assert min(b - a for a, b in itertools.pairwise(sorted(times))) >= limit.interval / 2 - 0.005


@pytest.mark.integration
def test_while_redis_restarts_requests_wait_for_it_and_keep_the_pace(settings, own_redis):
    """Slower, never wrong: a Redis restart delays the next turn instead of failing it or
    letting it go unpaced."""
    settings.REDIS_URL = own_redis.url
    settings.SYNC_REDIS_WAIT = 30
    politeness._redis.cache_clear()
    politeness._script.cache_clear()
    limit = RateLimit("paced-restart", "5/second")
    limit.sent(limit.acquire())
    own_redis.stop()
    restarted = threading.Thread(target=own_redis.restart, kwargs={"down_for": 1.0})
    restarted.start()
    turns = []
    for _ in range(6):
        turn = limit.acquire()
        limit.sent(turn)
        turns.append(time.monotonic())
    restarted.join()
    assert busiest_window(turns, limit.window) <= 5
    politeness._redis.cache_clear()
    politeness._script.cache_clear()


def test_when_redis_stays_away_a_request_fails_as_retry_later(settings, closed_port):
    settings.REDIS_URL = f"redis://127.0.0.1:{closed_port}/0"
    settings.SYNC_REDIS_WAIT = 1
    politeness._redis.cache_clear()
    politeness._script.cache_clear()
    with pytest.raises(SourceError, match="shared rate limit") as raised:
        RateLimit("paced-down", "5/second").acquire()
    assert raised.value.retry_later
    politeness._redis.cache_clear()
    politeness._script.cache_clear()
