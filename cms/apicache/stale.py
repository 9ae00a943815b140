"""The one map of what a write makes stale, and the one place that acts on it.

Every kind of write the public API can show is a `Write`; `REACH` says which pages' API views it
changes; `changed_urls(write)` turns that into the API URLs to purge; `record(write)` drives
every cache layer from it:

- the response cache (cms.apicache.middleware) is keyed on the content version, so every write
  bumps the version once its transaction commits and no cached response survives it;
- the visibility facts (cms.api.visibility) are keyed on the visibility version, bumped with
  it by every write that can change which pages are public (`CHANGES_VISIBILITY`);
- a CDN in WAGTAILFRONTENDCACHE gets `changed_urls(write)` as one PurgeBatch after the commit
  (computed before it: a deleted page's parent and translations must still be readable);
- the change log behind `/api/v2/changes/` (cms.apicache.changes) logs what the write did to
  the pages it reached, in the writer's transaction;
- `write_recorded` tells anyone else who acts on writes (cms.webhooks) with the same write and
  the same `changed_urls`, computed at most once per write.

The receivers below turn Wagtail's, Django's and our own signals into writes; wagtail-localize's
rows send theirs from cms.apicache.localize.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from functools import cache
from urllib.parse import urljoin

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db.models import Model, Q
from django.db.models.signals import post_delete, post_save
from django.dispatch import Signal
from django.urls import reverse
from django.utils import translation
from wagtail.documents import get_document_model
from wagtail.images import get_image_model
from wagtail.models import (
    Collection,
    CollectionViewRestriction,
    Locale,
    Page,
    PageViewRestriction,
    ReferenceIndex,
    Site,
)
from wagtail.signals import page_published, page_unpublished, post_page_move

from cms.api.version import bump_content_version
from cms.ops.frontend_cache import purge_after_commit

from . import changes

PUBLISH = "publish"
UNPUBLISH = "unpublish"
MOVE = "move"
DELETE = "delete"
PRIVACY = "privacy"
PAPER = "paper"  # an editor's save of a paper, its authors, affiliations or links
PAPERS_SYNCED = "papers_changed"  # the sync worker's batched writes
TRANSLATION = "translation"  # wagtail-localize rows behind a page's translation_status
MEDIA = "media"  # an image or document saved or deleted
COLLECTION_PRIVACY = "collection privacy"  # hides or shows a collection's images and documents
SITE = "site"
LOCALE = "locale"
EVERYTHING = "everything"  # a bulk writer's batch (see `batched`)

# Which pages' API views a write changes, beside the pages it names. A page's detail and list
# item show the page, its parent topic, its children (a topic lists its digests), its paper, its
# translation status and its URL (every ancestor's slug); "descendants" takes in the aliases of
# the page and of its descendants, public only while their pages are.
PAGE = frozenset({"page", "translations", "parent", "descendants"})
REACH: dict[str, frozenset[str]] = {
    PUBLISH: PAGE,
    UNPUBLISH: PAGE,
    MOVE: PAGE | {"old parent"},
    DELETE: frozenset({"page", "translations", "parent"}),  # its descendants send their own
    PRIVACY: PAGE,
    PAPER: frozenset({"papers", "digests of papers"}),
    PAPERS_SYNCED: frozenset({"papers", "digests of papers"}),
    TRANSLATION: frozenset({"page"}),
    MEDIA: frozenset({"pages using it"}),  # its endpoint's listing and detail besides
    COLLECTION_PRIVACY: frozenset(),  # the media endpoints' listings and the collection's items
    SITE: frozenset({"everything"}),
    LOCALE: frozenset({"everything"}),
    EVERYTHING: frozenset({"everything"}),
}

# Writes that can change which pages are public (or which languages pages are translated into,
# cms.translation.status.statuses): all but a paper's, which changes what digests show, never
# whether they are shown.
CHANGES_VISIBILITY = frozenset(REACH) - {PAPER, PAPERS_SYNCED, MEDIA, COLLECTION_PRIVACY}


@dataclass(frozen=True)
class Write:
    """One write: its kind, the page or pages it wrote, the papers it wrote."""

    kind: str
    page: Page | None = None
    pages: Q | None = None  # TRANSLATION: the translated pages, as a condition
    paper_ids: frozenset[int] = field(default_factory=frozenset)
    old_parent_id: int | None = None
    # PAPER, PAPERS_SYNCED: (paper id, the fields written) where the writer knows them.
    paper_fields: tuple[tuple[int, tuple[str, ...]], ...] = ()
    media: Model | None = None  # MEDIA: the image or document
    collection: Collection | None = None  # COLLECTION_PRIVACY: the restricted collection


def stale_page_ids(write: Write) -> set[int] | None:
    """The ids of the pages whose API views `write` changes (None: every page)."""
    reach = REACH[write.kind]
    if "everything" in reach:
        return None
    condition = Q(pk__in=[])
    page = write.page
    if page is not None:
        if "translations" in reach:
            condition |= Q(translation_key=page.translation_key)
        if "parent" in reach and page.depth > 1:
            condition |= Q(path=page.path[: -page.steplen])
        if "descendants" in reach:
            subtree = Page.objects.filter(path__startswith=page.path)
            condition |= Q(path__startswith=page.path)
            if "translations" in reach:
                # A translation's status names its source only while the source is public.
                condition |= Q(translation_key__in=subtree.values("translation_key"))
            # An alias shows its page's content only while that page is public.
            condition |= Q(alias_of__path__startswith=page.path)
    if "old parent" in reach and write.old_parent_id is not None:
        condition |= Q(pk=write.old_parent_id)
    if write.pages is not None:
        condition |= write.pages
    if "pages using it" in reach and write.media is not None:
        uses = ReferenceIndex.get_references_to(write.media).filter(
            base_content_type=ContentType.objects.get_for_model(Page)
        )
        condition |= Q(pk__in=[int(pk) for pk in uses.values_list("object_id", flat=True)])
    if "digests of papers" in reach:
        from cms.digests.models import DigestPage

        condition |= Q(pk__in=DigestPage.objects.filter(paper_id__in=write.paper_ids).values("pk"))
    ids = set(Page.objects.filter(condition).values_list("pk", flat=True))
    if page is not None and "page" in reach:
        ids.add(page.pk)  # a deleted page's row is gone, its URL is not
    return ids


def listing_paths() -> list[str]:
    """The page listings front ends read (API_CACHE_PURGE_LIST_QUERIES), per content language."""
    listing = reverse("wagtailapi:pages:listing")
    paths = []
    for query in settings.API_CACHE_PURGE_LIST_QUERIES:
        codes = (
            Locale.objects.values_list("language_code", flat=True) if "{locale}" in query else [""]
        )
        paths += [f"{listing}?{query.format(locale=code)}" if query else listing for code in codes]
    return list(dict.fromkeys(paths))


def changed_urls(write: Write) -> list[str]:
    """The absolute API URLs (on WAGTAILAPI_BASE_URL) whose responses `write` makes stale.

    Exact URLs only: a CDN purges by URL, so other query strings of the same endpoints expire
    after their shared-cache lifetime (README, "Caching").
    """
    from cms.papers.models import Paper

    page_ids = stale_page_ids(write)
    paper_ids = write.paper_ids
    if page_ids is None:
        page_ids = set(Page.objects.filter(depth__gt=1).values_list("pk", flat=True))
        paper_ids = frozenset(Paper.objects.values_list("pk", flat=True))
    else:
        # A digest's paper is public (and citable) only while a live, public digest shows it.
        from cms.digests.models import DigestPage

        shown = DigestPage.objects.filter(pk__in=page_ids).values_list("paper_id", flat=True)
        paper_ids = {*paper_ids, *shown, getattr(write.page, "paper_id", None)} - {None}
    paths = [reverse("wagtailapi:pages:detail", args=[pk]) for pk in sorted(page_ids)]
    paths += listing_paths()
    if paper_ids:
        from cms.papers.cite import cite_paths

        paths.append(reverse("wagtailapi:papers:listing"))
        for pk in sorted(paper_ids):
            paths += [reverse("wagtailapi:papers:detail", args=[pk]), *cite_paths(pk)]
    if write.media is not None:  # the site's image or document model (cms.api's endpoints)
        endpoint = "images" if isinstance(write.media, get_image_model()) else "documents"
        paths += [
            reverse(f"wagtailapi:{endpoint}:listing"),
            reverse(f"wagtailapi:{endpoint}:detail", args=[write.media.pk]),
        ]
    if write.collection is not None:
        paths += collection_media_paths(write.collection)
    if write.kind in CHANGES_VISIBILITY:  # an image is public while a public page uses it
        paths += media_paths(page_ids)
        paths += reader_listing_paths()
    base = settings.WAGTAILAPI_BASE_URL
    return [urljoin(base, path) for path in dict.fromkeys(paths)]


def reader_listing_paths() -> list[str]:
    """The sitemap and each language's feed: they name public pages (titles, summaries,
    addresses), and shared caches keep them for minutes (cms.urls)."""
    paths = [reverse("sitemap")]
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            paths.append(reverse("digest_feed"))
    return paths


def media_paths(page_ids: set[int]) -> list[str]:
    """The images listing and the details of the images the pages use (cms.api.media shows
    an image while a public page uses it)."""
    from cms.api.visibility import images_used_by_pages

    used = set().union(*images_used_by_pages(page_ids).values())
    details = [reverse("wagtailapi:images:detail", args=[pk]) for pk in sorted(used)]
    return [reverse("wagtailapi:images:listing"), *details]


def collection_media_paths(collection: Collection) -> list[str]:
    """The media listings and the details of the images and documents in `collection` and
    below it: a collection's view restriction covers its descendants (Wagtail's media
    endpoints leave out every item of a restricted collection)."""
    collections = Collection.objects.descendant_of(collection, inclusive=True)
    paths = []
    for endpoint, model in (("images", get_image_model()), ("documents", get_document_model())):
        items = model.objects.filter(collection__in=collections).order_by("pk")
        paths.append(reverse(f"wagtailapi:{endpoint}:listing"))
        paths += [
            reverse(f"wagtailapi:{endpoint}:detail", args=[pk])
            for pk in items.values_list("pk", flat=True)
        ]
    return paths


_batch: ContextVar[list[Write] | None] = ContextVar("stale_batch", default=None)

# Sent once per recorded write, inside the writer's transaction: `write`, `changed_urls`, a
# callable returning changed_urls(write) (computed on first call, then shared), and
# `changes_cursor`, one returning the changes feed's cursor after the write (cms.apicache.changes).
write_recorded = Signal()


def record(write: Write) -> None:
    """Make what `write` changed stale in every layer, once its transaction commits."""
    batch = _batch.get()
    if batch is not None:
        batch.append(write)
        return
    seq = changes.log_write(stale_page_ids(write), visibility=write.kind in CHANGES_VISIBILITY)
    bump_content_version(visibility=write.kind in CHANGES_VISIBILITY)
    urls: Callable[[], list[str]] = cache(lambda: changed_urls(write))
    if getattr(settings, "WAGTAILFRONTENDCACHE", None):
        purge_after_commit(urls())
    cursor = cache(lambda: changes.cursor_after(seq))
    write_recorded.send(sender=Write, write=write, changed_urls=urls, changes_cursor=cursor)


@contextmanager
def batched() -> Iterator[None]:
    """For bulk writers (an import publishes thousands of pages): the writes inside the block
    are recorded as one write to everything when it ends, instead of one by one. Use it inside
    the writer's transaction; a block left by an exception records nothing (it rolls back)."""
    token = _batch.set([])
    try:
        yield
        writes = _batch.get()
    finally:
        _batch.reset(token)
    if writes:
        record(Write(EVERYTHING))


# -- receivers: signals -> writes --------------------------------------------------------------


def _published(sender, instance: Page, **kwargs) -> None:
    record(Write(PUBLISH, page=instance))


def _unpublished(sender, instance: Page, **kwargs) -> None:
    record(Write(UNPUBLISH, page=instance))


def _moved(sender, instance: Page, parent_page_before: Page, **kwargs) -> None:
    moved = Page.objects.get(pk=instance.pk)  # the signal's instance may hold the old path
    record(Write(MOVE, page=moved, old_parent_id=parent_page_before.pk))


def _deleted(sender, instance, **kwargs) -> None:
    if isinstance(instance, Page):  # every Page subclass is its own sender
        record(Write(DELETE, page=instance))


def _privacy(sender, instance: PageViewRestriction, raw: bool = False, **kwargs) -> None:
    if raw:
        return
    page = Page.objects.filter(pk=instance.page_id).first()
    if page is not None:  # else the page's own deletion is the write
        record(Write(PRIVACY, page=page))


# The paper field an editor's save of a paper's related row writes (a paper's own save: unknown).
RELATED_PAPER_FIELDS = {
    "PaperAuthor": "authors",
    "PaperAffiliation": "affiliations",
    "PaperLink": "links",
}


def _paper(sender, instance, raw: bool = False, **kwargs) -> None:
    if not raw:
        paper_id = getattr(instance, "paper_id", instance.pk)
        related = RELATED_PAPER_FIELDS.get(sender.__name__)
        fields = ((paper_id, (related,)),) if related else ()
        record(Write(PAPER, paper_ids=frozenset([paper_id]), paper_fields=fields))


def _papers_synced(
    sender, paper_ids: Iterable[int], fields: dict[int, list[str]] | None = None, **kwargs
) -> None:
    paper_ids = frozenset(paper_ids)
    known = tuple(
        (pk, tuple(sorted(fields[pk]))) for pk in sorted(paper_ids) if pk in (fields or {})
    )
    record(Write(PAPERS_SYNCED, paper_ids=paper_ids, paper_fields=known))


def _media(sender, instance: Model, raw: bool = False, **kwargs) -> None:
    if not raw:
        record(Write(MEDIA, media=instance))


def _collection_privacy(
    sender, instance: CollectionViewRestriction, raw: bool = False, **kwargs
) -> None:
    if raw:
        return
    collection = Collection.objects.filter(pk=instance.collection_id).first()
    if collection is not None:  # else the collection's own deletion took it
        record(Write(COLLECTION_PRIVACY, collection=collection))


def _collection_saved(
    sender, instance: Collection, created: bool = False, raw: bool = False, **kwargs
) -> None:
    """A collection edited may be moving: Wagtail's collection editor saves it, then moves it
    under its new parent in the same transaction, and treebeard's move sends no signal. Its
    items are the same before and after, and the version is bumped at the commit, after the
    move; a move done outside that editor must record the write itself."""
    if not (raw or created):
        record(Write(COLLECTION_PRIVACY, collection=instance))


def _site(sender, raw: bool = False, **kwargs) -> None:
    if not raw:
        record(Write(SITE))


def _locale(sender, raw: bool = False, **kwargs) -> None:
    if not raw:
        record(Write(LOCALE))


def connect() -> None:
    from cms.papers.models import Paper, PaperAffiliation, PaperAuthor, PaperLink
    from cms.papers.signals import papers_changed

    page_published.connect(_published, dispatch_uid="stale-publish")
    page_unpublished.connect(_unpublished, dispatch_uid="stale-unpublish")
    post_page_move.connect(_moved, dispatch_uid="stale-move")
    post_delete.connect(_deleted, dispatch_uid="stale-delete")
    papers_changed.connect(_papers_synced, dispatch_uid="stale-papers-changed")
    receivers = [(PageViewRestriction, _privacy), (Site, _site), (Locale, _locale)]
    receivers += [(CollectionViewRestriction, _collection_privacy)]
    receivers += [(get_image_model(), _media), (get_document_model(), _media)]
    receivers += [(model, _paper) for model in (Paper, PaperAuthor, PaperAffiliation, PaperLink)]
    for model, receiver in receivers:
        for signal in (post_save, post_delete):
            signal.connect(
                receiver, sender=model, dispatch_uid=f"stale-{model.__name__}-{id(signal)}"
            )
    post_save.connect(_collection_saved, sender=Collection, dispatch_uid="stale-Collection")
