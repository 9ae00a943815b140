"""Rate limits and circuit breakers per source, shared by every worker process.

A source counts arrivals, so the pace is kept on when requests really leave: at most `amount`
requests in any window of `period + SYNC_RATE_MARGIN` seconds (5/s: 5 in 1.05 s; the margin
covers what the network adds on the way), counted from the moments they left. Within that,
requests keep an even schedule, a slot every window/amount seconds (210 ms), and a request that
leaves late - its process descheduled, its batch writing to the database between two requests -
does not push the schedule back: the requests after it may use the slots it missed, as soon as
the window has room but never closer than half a slot to the one before, so a short stall costs
little wall time. Slots missed more than one window ago are forgotten, so an idle source saves
up no more than the window allows anyway.

While a request let through has not reported it left (`sent()`, called once its bytes are
written), the next one waits for it, so a process descheduled between its turn and its socket
delays the requests after it instead of landing among them. With a broker configured the pace
lives in Redis, kept by Lua scripts on Redis's own clock, so every worker process keeps one pace
per source; without one it lives in this process's memory, which is all an in-process sync
needs.

Hand-rolled because the `limits` library, used before, stamps each hit with the caller's clock
before the round trip to Redis, counts from when a request was allowed rather than when it went
(so a source saw six requests in a second at 5/s), and its Redis windows are whole seconds,
which leaves no room for a margin. Circuit breakers: pybreaker, with its Redis storage when a
broker is configured (which falls back to a closed breaker while Redis does not answer).

When Redis does not answer (restarted, failed over), a request waits for it and tries again
(`_with_redis`), for up to `SYNC_REDIS_WAIT` seconds: pacing alone in each process could let
several processes together exceed a limit, so the pace is never guessed, only delayed. After
that the request fails as a source error that is retried later. A restarted Redis has lost the
pace's keys, which only lets the next requests go at the limit's even schedule from then on.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from functools import cache

import pybreaker
import redis
from django.conf import settings
from redis.exceptions import RedisError

from .conf import rate_limits, sync_setting
from .errors import SourceError

PERIOD_SECONDS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}

# Per source, three keys: KEYS[1] the times the last `amount` requests left (a list, newest
# first; Redis clock, microseconds), KEYS[2] the turn let through that has not yet reported it
# left (its token, which is when it was let through), KEYS[3] when the next slot of the even
# schedule is due. `_TURN` (ARGV: the window, the limit's amount, `hold`, the least gap between
# two requests; microseconds) returns {0, token} (go, and pass the token to `_SENT` once gone) or
# {microseconds to wait before asking again, false}. A turn counts as a departure at once (an
# entry in the list that `_SENT` moves to when it really left), so a process that dies after its
# turn still counts; others wait for it at most `hold`.
_TURN = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local window, amount, hold = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local gap = tonumber(ARGV[4])
local leaving = redis.call('PTTL', KEYS[2])
if leaving > 0 then
    return {math.min(leaving * 1000, 2000), false}
end
local due = tonumber(redis.call('GET', KEYS[3]))
if due and now < due then
    return {due - now, false}
end
local newest = tonumber(redis.call('LINDEX', KEYS[1], 0))
if newest and now < newest + gap then
    return {newest + gap - now, false}
end
local oldest = tonumber(redis.call('LINDEX', KEYS[1], amount - 1))
if oldest and now < oldest + window then
    return {oldest + window - now, false}
end
local token = string.format('%.0f', now)
local ttl = math.ceil((window + hold) / 1000) + 1000
redis.call('LPUSH', KEYS[1], token)
redis.call('LTRIM', KEYS[1], 0, amount - 1)
redis.call('PEXPIRE', KEYS[1], ttl)
redis.call('SET', KEYS[2], token, 'PX', math.max(math.ceil(hold / 1000), 1))
return {0, token}
"""
# ARGV: the turn's token, the window, the even schedule's slot, `hold`, the limit's amount.
_SENT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local window, interval, hold = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
local ttl = math.ceil((window + hold) / 1000) + 1000
local stamp = string.format('%.0f', now)
if redis.call('GET', KEYS[2]) == ARGV[1] then
    redis.call('LSET', KEYS[1], 0, stamp)  -- the newest entry is this turn's
    redis.call('DEL', KEYS[2])
else
    -- Held beyond `hold`: others went meanwhile. Now is later than all of them, so the list
    -- stays newest first; the turn's own entry stays too, which only paces more strictly.
    redis.call('LPUSH', KEYS[1], stamp)
    redis.call('LTRIM', KEYS[1], 0, tonumber(ARGV[5]) - 1)
end
redis.call('PEXPIRE', KEYS[1], ttl)
local due = tonumber(redis.call('GET', KEYS[3])) or now
due = math.max(due, now - window) + interval
redis.call('SET', KEYS[3], string.format('%.0f', due), 'PX', ttl)
return 0
"""
# How long a request let through may take to reach its socket (connecting included) before the
# others stop waiting for it: a process that died after its turn must not hold the source.
HOLD_SECONDS = 10.0

_paused_until: dict[str, float] = {}
# In-process pacing, per source (monotonic clock): when the last requests left (newest last),
# the turn let through and not yet reported sent (its token and until when it may hold the
# others), and when the even schedule's next slot is due.
_departures: dict[str, deque[float]] = {}
_leaving: dict[str, tuple[str, float]] = {}
_due: dict[str, float] = {}
_pace_lock = threading.Lock()


def _with_redis(call):
    """`call()`, waiting for Redis and trying again while it does not answer."""
    deadline = time.monotonic() + sync_setting("SYNC_REDIS_WAIT")
    delay = 0.1
    while True:
        try:
            return call()
        except RedisError as error:
            if time.monotonic() + delay > deadline:
                raise SourceError(
                    "not asked: the shared rate limit (Redis) did not answer for "
                    f"{sync_setting('SYNC_REDIS_WAIT')} s",
                    retry_later=True,
                ) from error
            time.sleep(delay)
            delay = min(delay * 2, 2.0)


def slot_interval(limit: str, margin: float = 0.0) -> float:
    """Seconds between two requests under `limit` ("5/second"), the period `margin` longer."""
    amount, _, unit = limit.partition("/")
    return (PERIOD_SECONDS[unit] + margin) / int(amount)


class RateLimit:
    """Blocks until one more request to `source` may go (and no pause is on)."""

    def __init__(self, source: str, limit: str | None):
        self.source = source
        self.amount = int(limit.partition("/")[0]) if limit else 0
        self.interval = slot_interval(limit, sync_setting("SYNC_RATE_MARGIN")) if limit else None
        self.window = self.interval * self.amount if limit else None
        self.least_gap = self.interval / 2 if limit else None  # a caught-up slot's nearest

    def pause(self, seconds: float) -> None:
        """Hold every process's requests to the source, as a 429's Retry-After asks."""
        if settings.REDIS_URL:
            key, px = f"sync:pause:{self.source}", max(int(seconds * 1000), 1)
            _with_redis(lambda: _redis().set(key, 1, px=px))
        else:
            _paused_until[self.source] = max(
                _paused_until.get(self.source, 0), time.monotonic() + seconds
            )

    def _pause_left(self) -> float:
        if settings.REDIS_URL:
            return _with_redis(lambda: _redis().pttl(f"sync:pause:{self.source}")) / 1000
        return _paused_until.get(self.source, 0) - time.monotonic()

    def _wait_for_pause(self) -> None:
        while (remaining := self._pause_left()) > 0:
            time.sleep(min(remaining, 1.0))

    def _keys(self) -> list[str]:
        key = f"sync:pace:{self.source}"
        return [key, f"{key}:leaving", f"{key}:due"]

    def _departures(self) -> deque[float]:
        """In-process: when this source's last `amount` requests left. Call with the lock held."""
        return _departures.setdefault(self.source, deque(maxlen=self.amount))

    def _turn(self) -> tuple[float, str]:
        """(0, token) if a request may go now (and is counted as leaving), else (seconds to
        wait, "")."""
        if settings.REDIS_URL:
            args = [
                int(self.window * 1e6),
                self.amount,
                int(HOLD_SECONDS * 1e6),
                int(self.least_gap * 1e6),
            ]
            wait, token = _with_redis(lambda: _script(_TURN)(keys=self._keys(), args=args))
            return wait / 1e6, (token or b"").decode()
        with _pace_lock:
            now = time.monotonic()
            _, held_until = _leaving.get(self.source, ("", 0.0))
            if held_until > now:
                return min(held_until - now, 0.002), ""
            due = _due.get(self.source, now)
            if now < due:
                return due - now, ""
            departures = self._departures()
            if departures and now < departures[-1] + self.least_gap:
                return departures[-1] + self.least_gap - now, ""
            if len(departures) == self.amount and now < departures[0] + self.window:
                return departures[0] + self.window - now, ""
            token = repr(now)
            departures.append(now)
            _leaving[self.source] = (token, now + HOLD_SECONDS)
            return 0.0, token

    def acquire(self) -> str:
        """Wait for this source's turn; pass what it returns to `sent()` once the request left."""
        while True:
            self._wait_for_pause()
            if self.interval is None:
                return ""
            wait, token = self._turn()
            if wait <= 0:
                return token
            time.sleep(wait)

    def sent(self, turn: str) -> None:
        """The request `turn` let through has left: it is counted from now."""
        if self.interval is None:
            return
        if settings.REDIS_URL:
            args = [
                turn,
                int(self.window * 1e6),
                int(self.interval * 1e6),
                int(HOLD_SECONDS * 1e6),
                self.amount,
            ]
            _with_redis(lambda: _script(_SENT)(keys=self._keys(), args=args))
            return
        with _pace_lock:
            now = time.monotonic()
            departures = self._departures()
            if _leaving.get(self.source, ("", 0.0))[0] == turn and departures:
                departures[-1] = now
                del _leaving[self.source]
            else:  # held beyond HOLD_SECONDS (see _SENT)
                departures.append(now)
            _due[self.source] = max(_due.get(self.source, now), now - self.window) + self.interval


def rate_limit_for(source: str) -> RateLimit:
    return RateLimit(source, rate_limits().get(source))


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(
        settings.REDIS_URL, socket_timeout=10, socket_connect_timeout=5, health_check_interval=30
    )


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
        _departures.clear()
        _leaving.clear()
        _due.clear()


def reset_breakers() -> None:
    """Close every breaker (tests, and after an operator fixed a source)."""
    for breaker in _breakers.values():
        breaker.close()
