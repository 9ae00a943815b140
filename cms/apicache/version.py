"""The content version: one token that changes whenever what the public API shows may change.

Cached API responses are keyed on it, so a bump makes every cached response unreachable at once;
nothing has to know which URLs a change affects. It lives in the default cache, which must be
shared by all web processes (Redis, or the file cache; see settings.CACHES).
"""

import functools
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Generic, TypeVar

from django.core.cache import cache
from django.db import connection, transaction

T = TypeVar("T")

VERSION_KEY = "api-content-version"
_collected: ContextVar[list[str | None] | None] = ContextVar("content_version_bumps", default=None)


def current_content_version() -> str:
    """The version now in force; a lost key (eviction, restart) simply starts a new version."""
    version = cache.get(VERSION_KEY)
    if version is None:
        cache.add(VERSION_KEY, uuid.uuid4().hex, timeout=None)
        version = cache.get(VERSION_KEY)
    return version


def _set_new_version() -> None:
    cache.set(VERSION_KEY, uuid.uuid4().hex, timeout=None)


def bump_content_version(*, using: str | None = None) -> None:
    """Make every cached API response stale once the current transaction commits.

    After the commit, not before: a request that read the new version while the change was still
    uncommitted would cache the old content under the new version.
    """
    collected = _collected.get()
    if collected is not None:
        collected.append(using)
        return
    transaction.on_commit(_set_new_version, using=using)


@contextmanager
def one_content_version_bump() -> Iterator[None]:
    """Within the block, however many bumps are asked for, register one when it ends.

    For bulk writers (an import publishes thousands of pages, each publish asking for a bump):
    use it inside their transaction. A block left by an exception registers nothing, since its
    transaction is rolled back.
    """
    token = _collected.set([])
    try:
        yield
        wanted = _collected.get()
    finally:
        _collected.reset(token)
    for using in dict.fromkeys(wanted):
        bump_content_version(using=using)


def shares_per_version_values() -> bool:
    """Whether values read once per content version may be shared (outside a transaction).

    Inside a transaction they are read afresh and not shared: the transaction may hold writes of
    its own that other requests must not see and the version does not reflect yet.
    """
    return not connection.in_atomic_block


class per_content_version(Generic[T]):  # lower case: used as a decorator
    """`read()` once per content version and process, for facts every request needs.

    Whatever changes such a fact bumps the version (cms.apicache.signals), so the value is read
    again on the first call after that. `forget()` drops the value (tests).
    """

    def __init__(self, read: Callable[[], T]):
        functools.update_wrapper(self, read)
        self.read = read
        self.kept: dict[str, T] = {}

    def __call__(self) -> T:
        if not shares_per_version_values():
            return self.read()
        version = current_content_version()
        if version not in self.kept:
            fresh = self.read()
            self.kept = {version: fresh}
        return self.kept[version]

    def forget(self) -> None:
        self.kept = {}
