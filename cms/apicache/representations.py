"""Stored API representations: each page's `fields=*` list item, built once and kept until a write.

A listing reads its page ids and their stored items in one query and sends the stored bytes; it
builds (with the same DRF serializer) and stores only the items that are missing or stale. A write
makes stale only the items it changes (cms.apicache.staleness says which), so an edit to one digest
leaves the other 9,999 stored. Nothing maintained does this for DRF: response caches (Django's,
ours in cms.apicache.middleware) key whole responses, which any change makes stale at once.

Why no item built from old data is ever stored after a write (SQLite, and PostgreSQL at READ
COMMITTED): a writer, in its own transaction, makes sure every affected (page, language) has a
row, then nulls the body and raises the generation. A reader reads the generation (or that there
is no row) before it reads the data it builds from, and stores only with the same condition:
  - a row it saw missing, by INSERT ... ON CONFLICT DO NOTHING: a writer's row, committed or not
    (PostgreSQL waits on the unique index), wins;
  - a tombstone, by UPDATE ... WHERE generation = <read> AND body IS NULL: a writer that got in
    between has raised the generation (PostgreSQL re-checks the condition after the row lock).
A reader that stores first is simply overwritten by the writer's tombstone.

An item also depends on the code that built it: each row records the `item_format()` of the
process that stored it, and a process with other code, catalogs or settings takes the row for
stale. During a rolling upgrade old and new processes each rebuild the other's rows; after it,
only the new format is written.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib.metadata
import logging
from collections.abc import Iterable, Iterator, Mapping
from contextvars import ContextVar
from pathlib import Path

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, FilteredRelation, Q, QuerySet

from .models import StoredRepresentation

logger = logging.getLogger(__name__)

BATCH = 500  # ids per statement: well inside SQLite's and PostgreSQL's parameter limits
_STORED = "_stored_representation"
_all_stale_at_end: ContextVar[bool] = ContextVar("all_stale_at_end", default=False)
PROJECT = Path(__file__).resolve().parents[2]
# What an item's bytes are made by, besides the content: the project's code and catalogs, ...
SOURCES = ("cms/**/*.py", "locales/**/*.mo")
# ... the libraries that serialize and render it, and the settings it reads.
LIBRARIES = ("django", "djangorestframework", "wagtail", "wagtail-localize")
SETTINGS = ("LANGUAGES", "LANGUAGE_CODE", "REST_FRAMEWORK", "WAGTAILAPI_BASE_URL", "USE_TZ")


@functools.cache
def item_format() -> str:
    """A fingerprint of everything but the content that a stored item's bytes depend on."""
    digest = hashlib.sha256()
    for pattern in SOURCES:
        for path in sorted(PROJECT.glob(pattern)):
            digest.update(str(path.relative_to(PROJECT)).encode())
            digest.update(path.read_bytes())
    for library in LIBRARIES:
        digest.update(f"{library}=={importlib.metadata.version(library)}".encode())
    for name in SETTINGS:
        digest.update(f"{name}={getattr(settings, name, None)!r}".encode())
    return digest.hexdigest()[:16]


def languages() -> list[str]:
    """The languages an item is stored in: the API's output follows the request's language."""
    return [code for code, _name in settings.LANGUAGES]


def invalidate_pages(page_ids: Iterable[int]) -> None:
    """Make the stored items of these pages stale, in every language, in the current transaction.

    `page_ids` may be a lazy queryset: inside `all_stale_at_end()` it is never read.
    """
    if _all_stale_at_end.get():
        return
    ids = sorted(set(page_ids))
    stored_languages = languages()
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        tombstones = [
            StoredRepresentation(page_id=page_id, language=language)
            for page_id in batch
            for language in stored_languages
        ]
        StoredRepresentation.objects.bulk_create(tombstones, ignore_conflicts=True)
        StoredRepresentation.objects.filter(page_id__in=batch).update(
            body=None, generation=F("generation") + 1
        )


@contextlib.contextmanager
def all_stale_at_end() -> Iterator[None]:
    """For bulk writers (the import): the block's own saves make nothing stale one page at a
    time; everything is made stale once when it ends. Use it inside the writer's transaction; a
    block left by an exception makes nothing stale, since its transaction is rolled back."""
    token = _all_stale_at_end.set(True)
    try:
        yield
    finally:
        _all_stale_at_end.reset(token)
    invalidate_all()


def invalidate_all() -> None:
    """Make every stored item stale: for changes whose reach is the whole site (sites, locales,
    bulk imports that write rows without signals)."""
    from wagtail.models import Page

    invalidate_pages(Page.objects.values_list("pk", flat=True).iterator())


def with_stored(pages: QuerySet, language: str) -> QuerySet:
    """`pages` as (id, generation, body, format) rows; generation None where the page has no row
    yet, body None where the row is a tombstone (see `current_body`)."""
    stored = FilteredRelation(
        "stored_representations", condition=Q(stored_representations__language=language)
    )
    return pages.annotate(**{_STORED: stored}).values_list(
        "pk", f"{_STORED}__generation", f"{_STORED}__body", f"{_STORED}__format"
    )


def current_body(body: str | None, format: str | None) -> str | None:
    """A stored body, unless it was built in another `item_format()` (then it is stale)."""
    return body if format == item_format() else None


def store(language: str, read: Mapping[int, int | None], bodies: Mapping[int, str]) -> None:
    """Keep freshly built items whose rows are still as `read` found them ({page id: generation}).

    Storing is an optimisation: if the database refuses it (a lock held too long), the response
    already built is still right, and the next request builds the item again.
    """
    new = [
        StoredRepresentation(
            page_id=page_id, language=language, format=item_format(), body=bodies[page_id]
        )
        for page_id, generation in read.items()
        if generation is None
    ]
    stale = {page_id: generation for page_id, generation in read.items() if generation is not None}
    # Each statement is safe alone; inside a transaction a savepoint keeps a refusal from
    # spoiling it (PostgreSQL aborts a transaction at its first error).
    guard = transaction.atomic() if connection.in_atomic_block else contextlib.nullcontext()
    try:
        with guard:
            if new:
                StoredRepresentation.objects.bulk_create(new, ignore_conflicts=True)
            if stale:
                _fill_tombstones(language, stale, bodies)
    except DatabaseError:
        logger.warning("could not store %d API representations", len(read), exc_info=True)


def _fill_tombstones(language: str, read: Mapping[int, int], bodies: Mapping[int, str]) -> None:
    """UPDATE each row that still has the generation read and no current body, in one
    `executemany`: the ORM's form of it (a CASE with a branch per row, under an OR of a
    condition per row) took a third of a listing whose 20 items changed to build."""
    meta = StoredRepresentation._meta
    quote = connection.ops.quote_name
    body, form, page, lang, generation = (
        quote(meta.get_field(name).column)
        for name in ("body", "format", "page", "language", "generation")
    )
    sql = (
        f"UPDATE {quote(meta.db_table)} SET {body} = %s, {form} = %s "
        f"WHERE {page} = %s AND {lang} = %s AND {generation} = %s "
        f"AND ({body} IS NULL OR {form} <> %s)"
    )
    current = item_format()
    rows = [(bodies[pk], current, pk, language, gen, current) for pk, gen in read.items()]
    with connection.cursor() as cursor:
        cursor.executemany(sql, rows)
