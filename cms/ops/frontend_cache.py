"""Purge the API's cached responses, in every language, when a page or a paper changes.

Wagtail's own frontend-cache handlers purge a page's HTML URL; this site is headless, so what
a CDN holds are API responses. Pages purge on publish and unpublish; papers (shown inside every
digest about them) on an editor's save and on the sync's writes (`papers_changed`). The
batch goes to the backends in WAGTAILFRONTENDCACHE only after the transaction commits, so the
cache can never refetch the old content in between.
"""

from collections.abc import Callable, Iterable
from urllib.parse import urljoin

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
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
    from cms.papers.cite import cite_paths

    paths = api_detail_urls(page) + api_list_urls()
    if getattr(page, "paper_id", None):  # a digest: whether its paper is citable may change
        paths += cite_paths(page.paper_id)
    return sorted({urljoin(base, path) for path in paths})


def api_urls_for_papers(paper_ids: Iterable[int]) -> list[str]:
    """Absolute URLs to purge when papers change: their own, the digests about them in every
    language (which embed the paper), and the listings."""
    from cms.digests.models import DigestPage
    from cms.papers.cite import cite_paths

    ids = sorted(set(paper_ids))
    paths = [reverse("wagtailapi:papers:listing")]
    paths += [reverse("wagtailapi:papers:detail", args=[pk]) for pk in ids]
    digests = DigestPage.objects.filter(paper_id__in=ids).values_list("pk", flat=True)
    paths += [reverse("wagtailapi:pages:detail", args=[pk]) for pk in digests]
    paths += [path for pk in ids for path in cite_paths(pk)]
    base = settings.WAGTAILAPI_BASE_URL
    return sorted({urljoin(base, path) for path in paths + api_list_urls()})


def _purge_after_commit(urls: Callable[[], list[str]]) -> None:
    if getattr(settings, "WAGTAILFRONTENDCACHE", None):
        transaction.on_commit(PurgeBatch(urls()).purge)


def purge_page_api_urls(sender: type[Page], instance: Page, **kwargs: object) -> None:
    _purge_after_commit(lambda: api_urls_for_page(instance))


def purge_paper_api_urls(sender: type, paper_ids: Iterable[int], **kwargs: object) -> None:
    """On `papers_changed`, sent by writers that bypass model signals (the sync)."""
    _purge_after_commit(lambda: api_urls_for_papers(paper_ids))


def _purge_saved_paper(sender: type, instance: object, raw: bool = False, **kwargs: object) -> None:
    # An editor's save in the admin saves the paper row with its authors, affiliations and links.
    if not raw:
        _purge_after_commit(lambda: api_urls_for_papers([instance.pk]))


def connect_signal_handlers() -> None:
    from cms.papers.models import Paper
    from cms.papers.signals import papers_changed

    page_published.connect(purge_page_api_urls, dispatch_uid="ops.purge_api_on_publish")
    page_unpublished.connect(purge_page_api_urls, dispatch_uid="ops.purge_api_on_unpublish")
    post_save.connect(_purge_saved_paper, sender=Paper, dispatch_uid="ops.purge_api_on_paper_save")
    papers_changed.connect(purge_paper_api_urls, dispatch_uid="ops.purge_api_on_papers_changed")
