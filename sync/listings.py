"""Listings fetched once per run and shared by every worker process.

A listing is one request that answers for many papers: a proceedings' table of contents on DBLP,
a venue's papers of a year on Semantic Scholar. Every batch of a run that touches the
proceedings needs the same listing, and both sources allow one request a second, so fetching it
per batch would make them the slowest part of a sync. The parsed records live in the default
cache (Redis in production, so every worker shares them) under the run's scope; `cache.add`,
atomic on every backend, is the lock that lets one process fetch while the others wait.

The lock lives `SYNC_LOCK_TTL` seconds and its holder renews it while it fetches, so a holder
that died is not waited on longer than that. When the cache does not answer (Redis restarting)
a process fetches the listing itself: one request more, never a wrong answer.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from django.conf import settings
from django.core.cache import cache
from redis.exceptions import RedisError

from .conf import sync_setting
from .renewal import Renewer

T = TypeVar("T")
_POLL_SECONDS = 0.05
_UNAVAILABLE = object()
logger = logging.getLogger(__name__)


def _cache_key(key: str) -> str:
    return f"sync:listing:{key}"


def _cached(call: Callable[[], T]) -> T | object:
    """`call()` on the cache, or `_UNAVAILABLE` when the cache does not answer."""
    try:
        return call()
    except (RedisError, OSError):
        logger.warning("the cache did not answer; fetching the listing unshared", exc_info=True)
        return _UNAVAILABLE


def listing_is_shared(key: str) -> bool:
    return _cached(lambda: cache.has_key(_cache_key(key))) is True


def shared_listing(key: str, fetch: Callable[[], T]) -> T:
    """`fetch()` once for `key` among all processes; the others get its answer from the cache.

    If the process holding the lock fails (its `fetch` raised, or it died), the lock is gone
    or expires within `SYNC_LOCK_TTL` and a waiting process fetches instead; errors are never
    cached.
    """
    cache_key = _cache_key(key)
    lock_key = f"{cache_key}:lock"
    ttl = settings.SYNC_LOCK_TTL
    deadline = time.monotonic() + sync_setting("SYNC_LISTING_WAIT")
    while True:
        found = _cached(lambda: cache.get(cache_key))
        if found is _UNAVAILABLE:
            return fetch()
        if found is not None:
            return found
        locked = _cached(lambda: cache.add(lock_key, 1, timeout=ttl))
        if locked is _UNAVAILABLE:
            return fetch()
        if locked:
            try:
                with Renewer(lambda: cache.touch(lock_key, ttl), ttl / 3):
                    value = fetch()
                keep = sync_setting("SYNC_LISTING_TTL")
                _cached(lambda: cache.set(cache_key, value, timeout=keep))  # noqa: B023 (called now)
                return value
            finally:
                _cached(lambda: cache.delete(lock_key))
        if time.monotonic() > deadline:
            return fetch()  # the holder is alive but stuck: do not wait on it forever
        time.sleep(_POLL_SECONDS)
