"""Purge the API's cached responses, in every language, when a page is published or unpublished.

Wagtail's own frontend-cache handlers purge a page's HTML URL; this site is headless, so what
a CDN holds are API responses. The batch goes to the backends in WAGTAILFRONTENDCACHE only after
the transaction commits, so the cache can never refetch the old content in between.
"""

from urllib.parse import urljoin

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from wagtail.contrib.frontend_cache.utils import PurgeBatch
from wagtail.models import Locale, Page
from wagtail.signals import page_published, page_unpublished


def api_list_urls() -> list[str]:
    """The page listings front ends read, once per content language."""
    listing = reverse("wagtailapi:pages:listing")
    urls = []
    for query in settings.API_CACHE_PURGE_LIST_QUERIES:
        if "{locale}" not in query:
            urls.append(f"{listing}?{query}" if query else listing)
            continue
        for language_code in Locale.objects.values_list("language_code", flat=True):
            urls.append(f"{listing}?{query.format(locale=language_code)}")
    return urls


def api_detail_urls(page: Page) -> list[str]:
    """Detail URLs of the page and its parent (which lists it), in every language."""
    urls = []
    for translation in page.get_translations(inclusive=True):
        urls.append(reverse("wagtailapi:pages:detail", args=[translation.pk]))
        parent = translation.get_parent()
        if parent is not None and not parent.is_root():
            urls.append(reverse("wagtailapi:pages:detail", args=[parent.pk]))
    return urls


def api_urls_for_page(page: Page) -> list[str]:
    """Absolute URLs (on WAGTAILAPI_BASE_URL) to purge when `page` changes."""
    base = settings.WAGTAILAPI_BASE_URL
    return sorted({urljoin(base, path) for path in api_detail_urls(page) + api_list_urls()})


def purge_page_api_urls(sender: type[Page], instance: Page, **kwargs: object) -> None:
    if not getattr(settings, "WAGTAILFRONTENDCACHE", None):
        return
    batch = PurgeBatch(api_urls_for_page(instance))
    transaction.on_commit(batch.purge)


def connect_signal_handlers() -> None:
    page_published.connect(purge_page_api_urls, dispatch_uid="ops.purge_api_on_publish")
    page_unpublished.connect(purge_page_api_urls, dispatch_uid="ops.purge_api_on_unpublish")
