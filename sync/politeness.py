"""Rate limits and circuit breakers per source, shared by every worker process.

Requests to a source are spaced: one goes only once `(period + SYNC_RATE_MARGIN) / amount`
seconds (5/s: 220 ms) have passed since the last one any process let through. The margin is
there because a source counts arrivals, not departures: a request held up between that check
and the socket (a busy machine) must not land in the same second as the ones after it. With a
broker configured the time of the last request lives in Redis and the check is a Lua script on
Redis's own clock, so every worker process keeps one pace per source; without one it lives in
this process's memory, which is all an in-process sync needs. The check comes right before each
request, after any wait, so a process descheduled while it waited simply goes later, and the
requests after it are spaced from when it really went.

Hand-rolled because the `limits` library, used before, stamps each hit with the caller's clock
before the round trip to Redis (a process descheduled in between records a slot earlier than it
uses it, and the source then sees six requests in a second at 5/s), and its Redis windows are
whole seconds, which leaves no room for a margin. Circuit breakers: pybreaker, with its Redis
storage when a broker is configured.
"""

from __future__ import annotations

import threading
import time
from functools import cache

import pybreaker
import redis
from django.conf import settings

from .conf import rate_limits, sync_setting

PERIOD_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}

# Let one request through if `interval` microseconds passed since the last one; else return how
# many microseconds are left. KEYS[1] holds the last one's time on Redis's clock.
_PASS = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local interval = tonumber(ARGV[1])
local last = tonumber(redis.call('GET', KEYS[1]))
if last and now < last + interval then
    return last + interval - now
end
local ttl = math.ceil(interval / 1000) + 1000
redis.call('SET', KEYS[1], string.format('%.0f', now), 'PX', string.format('%d', ttl))
return 0
"""

_paused_until: dict[str, float] = {}
_last_request: dict[str, float] = {}  # in-process pacing: monotonic time of the last request
_pace_lock = threading.Lock()


def slot_interval(limit: str, margin: float = 0.0) -> float:
    """Seconds between two requests under `limit` ("5/second"), the period `margin` longer."""
    amount, _, unit = limit.partition("/")
    return (PERIOD_SECONDS[unit] + margin) / int(amount)


class RateLimit:
    """Blocks until one more request to `source` may go (and no pause is on)."""

    def __init__(self, source: str, limit: str | None):
        self.source = source
        self.interval = slot_interval(limit, sync_setting("SYNC_RATE_MARGIN")) if limit else None

    def pause(self, seconds: float) -> None:
        """Hold every process's requests to the source, as a 429's Retry-After asks."""
        if settings.REDIS_URL:
            _redis().set(f"sync:pause:{self.source}", 1, px=max(int(seconds * 1000), 1))
        else:
            _paused_until[self.source] = max(
                _paused_until.get(self.source, 0), time.monotonic() + seconds
            )

    def _pause_left(self) -> float:
        if settings.REDIS_URL:
            return _redis().pttl(f"sync:pause:{self.source}") / 1000
        return _paused_until.get(self.source, 0) - time.monotonic()

    def _wait_for_pause(self) -> None:
        while (remaining := self._pause_left()) > 0:
            time.sleep(min(remaining, 1.0))

    def _wait_left(self) -> float:
        """0 if a request may go now (and it is counted as gone), else seconds to wait."""
        if settings.REDIS_URL:
            key = f"sync:pace:{self.source}"
            return _pass_script()(keys=[key], args=[int(self.interval * 1e6)]) / 1e6
        with _pace_lock:
            now = time.monotonic()
            left = _last_request.get(self.source, -self.interval) + self.interval - now
            if left <= 0:
                _last_request[self.source] = now
            return max(left, 0.0)

    def acquire(self) -> None:
        while True:
            self._wait_for_pause()
            if self.interval is None:
                return
            left = self._wait_left()
            if left <= 0:
                return
            time.sleep(left)


def rate_limit_for(source: str) -> RateLimit:
    return RateLimit(source, rate_limits().get(source))


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


@cache
def _pass_script():
    return _redis().register_script(_PASS)


_breakers: dict[tuple[str, str], pybreaker.CircuitBreaker] = {}


def breaker_for(source: str) -> pybreaker.CircuitBreaker:
    """One breaker per source: after repeated failures the source is skipped for a while."""
    key = (source, settings.REDIS_URL)
    if key not in _breakers:
        storage = None
        if settings.REDIS_URL:
            storage = pybreaker.CircuitRedisStorage(
                pybreaker.STATE_CLOSED, _redis(), namespace=f"sync:breaker:{source}"
            )
        _breakers[key] = pybreaker.CircuitBreaker(
            fail_max=sync_setting("SYNC_BREAKER_FAIL_MAX"),
            reset_timeout=sync_setting("SYNC_BREAKER_RESET_TIMEOUT"),
            state_storage=storage,
            name=source,
        )
    return _breakers[key]


def reset_pauses() -> None:
    _paused_until.clear()


def reset_pacing() -> None:
    """Forget in-process request times (tests: each starts with every source free)."""
    with _pace_lock:
        _last_request.clear()


def reset_breakers() -> None:
    """Close every breaker (tests, and after an operator fixed a source)."""
    for breaker in _breakers.values():
        breaker.close()
