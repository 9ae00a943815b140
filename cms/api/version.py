"""The content version: one token that changes whenever what the public API shows may change.

Cached API responses are keyed on it, so a bump makes every cached response unreachable at once
(cms.apicache.stale bumps it for every write). The visibility version changes with it on every
write except a paper's: it keys the facts that decide which pages are public (view restrictions,
sites, hidden branches; cms.api.visibility), which no paper write changes. It lives in the
default cache, which must be shared by all web processes (Redis, or the file cache; see
settings.CACHES).

When the cache does not answer (Redis restarting, or out of this process's reach) nothing is
served from it and a write still commits; but Redis may come back holding the old version and
the answers cached under it (deploy/ runs it with an append-only file), so a bump that could not
be made is owed, not forgotten: this process makes it before it reads the cache again, and a
background thread retries it every few seconds until the cache answers, for the other processes'
readers. A reader that finds the cache down owes a bump too, for the same reason.
"""

from __future__ import annotations

import functools
import logging
import threading
import time
import uuid
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db import transaction
from redis.exceptions import RedisError

VERSION_KEY = "api-content-version"
VISIBILITY_VERSION_KEY = "api-visibility-version"
ALL_VERSION_KEYS = (VERSION_KEY, VISIBILITY_VERSION_KEY)
# What the cache raises when it does not answer: Redis's errors, the file cache's OSError.
CACHE_DOWN = (RedisError, OSError)
RETRY_SECONDS = (0.5, 1.0, 2.0, 5.0)  # between tries of an owed bump, the last one repeated

T = TypeVar("T")
logger = logging.getLogger(__name__)
_lock = threading.Lock()
_owed = 0  # bumps this process could not make and has not made good since
_retrying: threading.Thread | None = None


def current_content_version(key: str = VERSION_KEY) -> str | None:
    """The version now in force (`key`: the content's or the visibility's); None when the cache
    does not answer (cache nothing then).

    A lost key (eviction, restart) simply starts a new version; a bump this process owes is
    made first.
    """
    try:
        if _owed:
            _set_new_version(raising=True)
        version = cache.get(key)
        if version is None:
            cache.add(key, uuid.uuid4().hex, timeout=None)
            version = cache.get(key)
        return version
    except CACHE_DOWN:
        cache_went_down()
        return None


def read_with_version(
    keys: list[str], version_key: str = VERSION_KEY
) -> tuple[str | None, dict[str, Any]]:
    """The version under `version_key` and the values kept under `keys` by `store_with_version`
    under that same version, in one round trip (values of an earlier version are left out).

    (None, {}) when the cache does not answer. When the version had to be started anew (lost
    key, owed bump), nothing is found: what is there was stored under an earlier version.
    """
    try:
        if not _owed:
            found = cache.get_many([version_key, *keys])
            version = found.pop(version_key, None)
            if version is not None:
                return version, {
                    key: entry[1] for key, entry in found.items() if entry[0] == version
                }
        version = current_content_version(version_key)
    except CACHE_DOWN:
        cache_went_down()
        return None, {}
    return version, {}


def store_with_version(key: str, version: str, value: Any, timeout: int) -> None:
    """Keep `value` under `key` as built under `version`; a cache that does not answer keeps
    nothing (and is owed a bump, see above)."""
    try:
        cache.set(key, (version, value), timeout)
    except CACHE_DOWN:
        cache_went_down()


def read_through(key: str, version_key: str, compute: Callable[[], T], timeout: int) -> T:
    """The value kept under `key` for the version under `version_key`, else `compute()`, kept
    for the next reader (one round trip on a hit; `timeout` 0 keeps and reads nothing)."""
    if not timeout:
        return compute()
    version, found = read_with_version([key], version_key)
    if key in found:
        return found[key]
    value = compute()
    if version is not None:
        store_with_version(key, version, value, timeout)
    return value


def cache_went_down() -> None:
    """This process found the cache down: if it comes back with what it held, its answers may
    predate writes made meanwhile, so the version is bumped once it answers again."""
    global _owed, _retrying
    logger.warning("the cache did not answer; the API content version is bumped when it does")
    with _lock:
        _owed += 1
        if _retrying is None or not _retrying.is_alive():
            _retrying = threading.Thread(
                target=_retry_owed, daemon=True, name="content-version-retry"
            )
            _retrying.start()


def _retry_owed() -> None:
    tries = 0
    while _owed:
        time.sleep(RETRY_SECONDS[min(tries, len(RETRY_SECONDS) - 1)])
        tries += 1
        try:
            _set_new_version(raising=True)
        except CACHE_DOWN:
            continue


def _set_new_version(keys: tuple[str, ...] = ALL_VERSION_KEYS, *, raising: bool = False) -> None:
    """Bump `keys` now; if the cache does not answer, a bump of all of them is owed
    (`raising`: and raise)."""
    global _owed
    with _lock:
        made_good = _owed  # a bump made from here on makes good those that failed before
    if made_good:
        keys = ALL_VERSION_KEYS
    try:
        cache.set_many({key: uuid.uuid4().hex for key in keys}, timeout=None)
    except CACHE_DOWN:
        if raising:
            raise
        cache_went_down()
        return
    with _lock:
        _owed -= made_good


def bump_content_version(*, using: str | None = None, visibility: bool = True) -> None:
    """Make every cached API response (and, with `visibility`, the visibility facts) stale
    once the current transaction commits.

    After the commit, not before: a request that read the new version while the change was still
    uncommitted would cache the old content under the new version. A bump the cache does not
    take never fails the write (it is owed, above).
    """
    keys = ALL_VERSION_KEYS if visibility else (VERSION_KEY,)
    transaction.on_commit(functools.partial(_set_new_version, keys), using=using)
