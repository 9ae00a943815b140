"""Rate limits and circuit breakers per source, shared by every worker process.

Requests to a source are spaced from when the previous one really left: a request may go once
`(period + SYNC_RATE_MARGIN) / amount` seconds (5/s: 210 ms) have passed since the last one any
process sent, and while one that was let through has not yet reported it left (`sent()`, called
once its bytes are written), the next waits for it. So a process descheduled between its turn
and its socket (a busy machine) delays the requests after it instead of landing among them: a
source counts arrivals. The margin covers what the network adds on the way. With a broker
configured the pace lives in Redis, kept by Lua scripts on Redis's own clock, so every worker
process keeps one pace per source; without one it lives in this process's memory, which is all
an in-process sync needs.

Hand-rolled because the `limits` library, used before, stamps each hit with the caller's clock
before the round trip to Redis, counts from when a request was allowed rather than when it went
(so a source saw six requests in a second at 5/s), and its Redis windows are whole seconds,
which leaves no room for a margin. Circuit breakers: pybreaker, with its Redis storage when a
broker is configured.
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

# KEYS[1]: when the last request left (Redis clock, microseconds); KEYS[2]: until when one that
# was let through may still be on its way to the socket. Returns 0 (go, and tell `_SENT` once
# gone) or the microseconds to wait before asking again.
_TURN = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local interval, hold = tonumber(ARGV[1]), tonumber(ARGV[2])
local leaving = tonumber(redis.call('GET', KEYS[2]))
if leaving and leaving > now then
    return math.min(leaving - now, 2000)
end
local last = tonumber(redis.call('GET', KEYS[1]))
if last and now < last + interval then
    return last + interval - now
end
local ttl = string.format('%d', math.ceil((interval + hold) / 1000) + 1000)
redis.call('SET', KEYS[2], string.format('%.0f', now + hold), 'PX', ttl)
redis.call('SET', KEYS[1], string.format('%.0f', now), 'PX', ttl)
return 0
"""
_SENT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local ttl = string.format('%d', math.ceil(tonumber(ARGV[1]) / 1000) + 1000)
redis.call('SET', KEYS[1], string.format('%.0f', now), 'PX', ttl)
redis.call('DEL', KEYS[2])
return 0
"""
# How long a request let through may take to reach its socket (connecting included) before the
# others stop waiting for it: a process that died after its turn must not hold the source.
HOLD_SECONDS = 10.0

_paused_until: dict[str, float] = {}
# In-process pacing: per source, when the last request left and until when one let through may
# still be on its way (monotonic clock).
_last_request: dict[str, float] = {}
_leaving_until: dict[str, float] = {}
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

    def _keys(self) -> list[str]:
        return [f"sync:pace:{self.source}", f"sync:pace:{self.source}:leaving"]

    def _turn(self) -> float:
        """0 if a request may go now (and is counted as leaving), else seconds to wait."""
        if settings.REDIS_URL:
            args = [int(self.interval * 1e6), int(HOLD_SECONDS * 1e6)]
            return _script(_TURN)(keys=self._keys(), args=args) / 1e6
        with _pace_lock:
            now = time.monotonic()
            leaving = _leaving_until.get(self.source, 0.0) - now
            if leaving > 0:
                return min(leaving, 0.002)
            left = _last_request.get(self.source, now - self.interval) + self.interval - now
            if left > 0:
                return left
            _last_request[self.source] = now
            _leaving_until[self.source] = now + HOLD_SECONDS
            return 0.0

    def acquire(self) -> None:
        """Wait for this source's turn; call `sent()` once the request has left."""
        while True:
            self._wait_for_pause()
            if self.interval is None:
                return
            wait = self._turn()
            if wait <= 0:
                return
            time.sleep(wait)

    def sent(self) -> None:
        """The request let through by `acquire` has left: the next one is spaced from now."""
        if self.interval is None:
            return
        if settings.REDIS_URL:
            _script(_SENT)(keys=self._keys(), args=[int((self.interval + HOLD_SECONDS) * 1e6)])
            return
        with _pace_lock:
            _last_request[self.source] = time.monotonic()
            _leaving_until.pop(self.source, None)


def rate_limit_for(source: str) -> RateLimit:
    return RateLimit(source, rate_limits().get(source))


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


@cache
def _script(text: str):
    return _redis().register_script(text)


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
        _leaving_until.clear()


def reset_breakers() -> None:
    """Close every breaker (tests, and after an operator fixed a source)."""
    for breaker in _breakers.values():
        breaker.close()
