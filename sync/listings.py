"""Listings fetched once per run and shared by every worker process.

A listing is one request that answers for many papers: a proceedings' table of contents on DBLP,
a venue's papers of a year on Semantic Scholar. Every batch of a run that touches the
proceedings needs the same listing, and both sources allow one request a second, so fetching it
per batch would make them the slowest part of a sync. The parsed records live in the default
cache (Redis in production, so every worker shares them) under the run's scope; `cache.add`,
atomic on every backend, is the lock that lets one process fetch while the others wait.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache

from .conf import sync_setting

T = TypeVar("T")
_POLL_SECONDS = 0.05


def _cache_key(key: str) -> str:
    return f"sync:listing:{key}"


def listing_is_shared(key: str) -> bool:
    return cache.has_key(_cache_key(key))


def shared_listing(key: str, fetch: Callable[[], T]) -> T:
    """`fetch()` once for `key` among all processes; the others get its answer from the cache.

    If the process holding the lock fails (its `fetch` raised, or it died), the lock is gone
    or expires and a waiting process fetches instead; errors are never cached.
    """
    cache_key = _cache_key(key)
    lock_key = f"{cache_key}:lock"
    wait = sync_setting("SYNC_LISTING_WAIT")
    deadline = time.monotonic() + wait
    while True:
        found = cache.get(cache_key)
        if found is not None:
            return found
        if cache.add(lock_key, 1, timeout=wait):
            try:
                value = fetch()
                cache.set(cache_key, value, timeout=sync_setting("SYNC_LISTING_TTL"))
                return value
            finally:
                cache.delete(lock_key)
        if time.monotonic() > deadline:
            return fetch()  # the holder is stuck: do not wait on it forever
        time.sleep(_POLL_SECONDS)
