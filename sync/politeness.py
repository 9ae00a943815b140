"""Rate limits and circuit breakers per source, shared by every worker process.

With a broker configured both live in Redis (the `limits` library's moving window, a Lua script,
so no two processes can together exceed a source's limit; pybreaker's Redis storage for the
breaker); without one they live in this process's memory, which is all an in-process sync needs.
"""

from __future__ import annotations

import time
from functools import cache

import pybreaker
import redis
from django.conf import settings
from limits import parse
from limits.storage import MemoryStorage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from .conf import rate_limits, sync_setting

_memory_storage = MemoryStorage()


@cache
def _limiter() -> MovingWindowRateLimiter:
    if settings.REDIS_URL:
        return MovingWindowRateLimiter(storage_from_string(settings.REDIS_URL))
    return MovingWindowRateLimiter(_memory_storage)


_paused_until: dict[str, float] = {}


class RateLimit:
    """Blocks until one more request to `source` fits in its window (and no pause is on)."""

    def __init__(self, source: str, limit: str | None):
        self.source = source
        self.item = parse(limit) if limit else None

    def pause(self, seconds: float) -> None:
        """Hold every process's requests to the source, as a 429's Retry-After asks."""
        if settings.REDIS_URL:
            _redis().set(f"sync:pause:{self.source}", 1, px=max(int(seconds * 1000), 1))
        else:
            _paused_until[self.source] = max(
                _paused_until.get(self.source, 0), time.monotonic() + seconds
            )

    def _wait_for_pause(self) -> None:
        while True:
            if settings.REDIS_URL:
                remaining = _redis().pttl(f"sync:pause:{self.source}") / 1000
            else:
                remaining = _paused_until.get(self.source, 0) - time.monotonic()
            if remaining <= 0:
                return
            time.sleep(min(remaining, 1.0))

    def acquire(self) -> None:
        self._wait_for_pause()
        if self.item is None:
            return
        limiter = _limiter()
        while not limiter.hit(self.item, "sync", self.source):
            stats = limiter.get_window_stats(self.item, "sync", self.source)
            time.sleep(min(max(stats.reset_time - time.time(), 0.01), 1.0))


def rate_limit_for(source: str) -> RateLimit:
    return RateLimit(source, rate_limits().get(source))


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


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


def reset_breakers() -> None:
    """Close every breaker (tests, and after an operator fixed a source)."""
    for breaker in _breakers.values():
        breaker.close()
