"""Purge a CDN in front of the API (WAGTAILFRONTENDCACHE) after the transaction commits.

Which URLs a write makes stale is cms.apicache.stale's decision; this only sends them, through
Wagtail's own PurgeBatch, once the write is committed, so the CDN can never refetch the old
content in between.
"""

from django.conf import settings
from django.db import transaction
from wagtail.contrib.frontend_cache.utils import PurgeBatch


def purge_after_commit(urls: list[str]) -> None:
    """Purge `urls` from every configured frontend-cache backend once the transaction commits."""
    if getattr(settings, "WAGTAILFRONTENDCACHE", None) and urls:
        transaction.on_commit(PurgeBatch(urls).purge)
