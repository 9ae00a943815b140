"""The content version: one token that changes whenever what the public API shows may change.

Cached API responses are keyed on it, so a bump makes every cached response unreachable at once
(cms.apicache.stale bumps it for every write). It lives in the default cache, which must be
shared by all web processes (Redis, or the file cache; see settings.CACHES).
"""

import uuid

from django.core.cache import cache
from django.db import transaction

VERSION_KEY = "api-content-version"


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
    transaction.on_commit(_set_new_version, using=using)
