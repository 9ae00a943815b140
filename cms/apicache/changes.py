"""The change log's one writer: what each recorded write did to the set of public pages.

`stale.record()` calls `log_write` inside the writer's transaction with the pages the
staleness map says the write reached (the map stays the one place deciding reach). Each page
keeps one row (cms.apicache.models.PageChange), its latest state: `upsert` while an anonymous
reader of the default site may see it, `delete` once a page that was public is not (unpublished,
deleted, moved under a private or unpublished parent, made private). A page never public gets
no row. All rows a write touches share one sequence number, taken from a counter row locked to
the commit, so sequence numbers become visible in order: a reader that has seen n has seen
everything before it, and never meets a hole that fills in later.

Writes that cannot change which pages are public (a paper saved or synced, media) only move
the rows of pages already public: one UPDATE, no page read. A write to everything (an import's
batch, a site, a locale) reconciles the whole log (`reconcile_all`).

Cursors are opaque to consumers: base64url of `1:<epoch>:<seq>:<page_id>`, the position after
that row in `(seq, page_id)` order. The epoch changes only when the log is rebuilt from scratch
(`manage.py rebuild_changes --new-epoch`); sequence numbers keep growing across epochs, so a
cursor of an old epoch always meets rows of the new one and is refused with a 410.
"""

from __future__ import annotations

import base64
import binascii
import secrets
from collections.abc import Callable, Iterable
from datetime import datetime
from types import SimpleNamespace
from typing import NamedTuple

from django.contrib.contenttypes.models import ContentType
from django.db import transaction
from django.utils import timezone
from wagtail.models import Page

from cms.api.prefetch import RULE_FIELDS
from cms.api.visibility import PublicRule, anonymous_rule

from .models import ChangeCounter, PageChange

CURSOR_VERSION = "1"
# A cursor "after this write": past every page id of its sequence number.
AFTER_WRITE = 2**62
COUNTER_PK = 1
ROW_FIELDS = ("locale", "page_type", "action", "html_path", "seq", "changed_at")
PAGE_FIELDS = (*RULE_FIELDS, "locale__language_code", "content_type", "url_path", "depth")
RECONCILE_CHUNK = 2000


class Cursor(NamedTuple):
    epoch: str
    seq: int
    page_id: int


def encode_cursor(cursor: Cursor) -> str:
    text = f"{CURSOR_VERSION}:{cursor.epoch}:{cursor.seq}:{cursor.page_id}"
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def decode_cursor(value: str) -> Cursor:
    """The cursor `value` encodes; ValueError if it is not one of this feed's."""
    try:
        text = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4)).decode("ascii")
    except (binascii.Error, UnicodeError) as error:
        raise ValueError(value) from error
    parts = text.split(":")
    if len(parts) != 4 or parts[0] != CURSOR_VERSION or not parts[1]:
        raise ValueError(value)
    _version, epoch, seq, page_id = parts
    if not (seq.isascii() and seq.isdigit() and page_id.isascii() and page_id.isdigit()):
        raise ValueError(value)
    return Cursor(epoch, int(seq), int(page_id))


def newer_cursor(first: str | None, second: str | None) -> str | None:
    """The later of two cursors (`second` when they are of different epochs or unreadable:
    callers pass the newer write's cursor second)."""
    if not first or not second:
        return second or first
    try:
        a, b = decode_cursor(first), decode_cursor(second)
    except ValueError:
        return second
    if a.epoch == b.epoch and (a.seq, a.page_id) > (b.seq, b.page_id):
        return first
    return second


def head_cursor() -> str | None:
    """The cursor after every write committed so far (None before the log's first use)."""
    counter = ChangeCounter.objects.filter(pk=COUNTER_PK).first()
    if counter is None:
        return None
    return encode_cursor(Cursor(counter.epoch, counter.value, AFTER_WRITE))


def cursor_after(seq: int | None) -> str | None:
    """The cursor after the write that took `seq`; the head when it wrote no row."""
    if seq is None:
        return head_cursor()
    epoch = ChangeCounter.objects.filter(pk=COUNTER_PK).values_list("epoch", flat=True).first()
    return encode_cursor(Cursor(epoch, seq, AFTER_WRITE)) if epoch else None


def new_epoch() -> str:
    return secrets.token_hex(6)


def next_seq() -> int | None:
    """The next sequence number, the counter row locked until the transaction ends; None if
    the log was never filled (the caller reconciles it instead)."""
    counter = ChangeCounter.objects.select_for_update().filter(pk=COUNTER_PK).first()
    if counter is None or counter.value == 0:
        return None
    counter.value += 1
    counter.save(update_fields=["value"])
    return counter.value


def log_write(page_ids: set[int] | None, *, visibility: bool) -> int | None:
    """Log one write that reached `page_ids` (None: every page); `visibility`: whether it can
    change which pages are public. Returns the sequence number it took, None if it wrote no
    row. Call it inside the writer's transaction."""
    if page_ids is None:
        return reconcile_all()
    if not page_ids:
        return None
    with transaction.atomic():
        if visibility:
            return log_pages(page_ids)
        # A paper or an image changes what public pages show, never whether they are shown.
        moved = PageChange.objects.filter(page_id__in=page_ids, action=PageChange.UPSERT)
        if not moved.exists():
            return None
        seq = next_seq()
        if seq is None:
            return reconcile_all()
        moved.update(seq=seq, changed_at=timezone.now())
        return seq


def log_pages(page_ids: set[int]) -> int | None:
    """Upsert the public pages among `page_ids`; mark the rest that were public deleted."""
    pages = list(Page.objects.filter(pk__in=page_ids).select_related("locale").only(*PAGE_FIELDS))
    public = anonymous_rule().public_among(pages)
    hidden = page_ids - {page.pk for page in public}
    withdrawn = PageChange.objects.filter(page_id__in=hidden, action=PageChange.UPSERT)
    if not public and not withdrawn.exists():
        return None
    seq = next_seq()
    if seq is None:
        return reconcile_all()
    now, holder = timezone.now(), SimpleNamespace()
    write_rows([row_for(page, seq, now, holder) for page in public])
    withdrawn.update(action=PageChange.DELETE, seq=seq, changed_at=now)
    return seq


def row_for(page: Page, seq: int, now: datetime, holder: SimpleNamespace) -> PageChange:
    """The row of a public page, as of write `seq`. Wagtail keeps the site root paths on what
    it is given as the request (`holder`: one for all the pages of a write); not a request,
    so that a page in two sites takes its first site's address, whatever site asked."""
    parts = page.get_url_parts(holder)
    model = ContentType.objects.get_for_id(page.content_type_id).model_class()
    return PageChange(
        page_id=page.pk,
        locale=page.locale.language_code,
        page_type=model._meta.label if model is not None else "wagtailcore.Page",
        action=PageChange.UPSERT,
        html_path=(parts[2] or "") if parts else "",
        seq=seq,
        changed_at=now,
    )


def write_rows(rows: list[PageChange]) -> None:
    if rows:
        PageChange.objects.bulk_create(
            rows, update_conflicts=True, unique_fields=["page_id"], update_fields=ROW_FIELDS
        )


def reconcile_all(
    *, touch_all: bool = True, progress: Callable[[int, int], None] | None = None
) -> int | None:
    """Bring the whole log in line with the pages, as one write (one sequence number).

    `touch_all`: every public page is upserted again (a write to everything may have changed
    any page's representation); otherwise only rows whose state or address differ. `progress`
    is told (pages read, pages in all) as the pages are read. Creates the counter on first
    use. Returns the sequence number, None if nothing was written.
    """
    with transaction.atomic():
        counter = ChangeCounter.objects.select_for_update().filter(pk=COUNTER_PK).first()
        if counter is None:
            ChangeCounter.objects.create(pk=COUNTER_PK, value=0, epoch=new_epoch())
            counter = ChangeCounter.objects.select_for_update().get(pk=COUNTER_PK)
        seq = counter.value + 1
        now, holder = timezone.now(), SimpleNamespace()
        known = {
            page_id: (locale, page_type, action, html_path)
            for page_id, locale, page_type, action, html_path in PageChange.objects.values_list(
                "page_id", "locale", "page_type", "action", "html_path"
            )
        }
        rule = anonymous_rule()
        upserts: list[PageChange] = []
        public_ids: set[int] = set()
        for page in public_pages_of_site(rule, progress):
            public_ids.add(page.pk)
            row = row_for(page, seq, now, holder)
            state = (row.locale, row.page_type, row.action, row.html_path)
            if touch_all or known.get(page.pk) != state:
                upserts.append(row)
        gone = [
            page_id
            for page_id, (_locale, _type, action, _path) in known.items()
            if action == PageChange.UPSERT and page_id not in public_ids
        ]
        if not upserts and not gone and counter.value:
            return None
        counter.value = seq
        counter.save(update_fields=["value"])
        write_rows(upserts)
        for start in range(0, len(gone), RECONCILE_CHUNK):
            PageChange.objects.filter(page_id__in=gone[start : start + RECONCILE_CHUNK]).update(
                action=PageChange.DELETE, seq=seq, changed_at=now
            )
        return seq


def public_pages_of_site(
    rule: PublicRule, progress: Callable[[int, int], None] | None = None
) -> Iterable[Page]:
    """Every page an anonymous reader of the default site may see, read in chunks."""
    pages = Page.objects.filter(depth__gt=1).select_related("locale").only(*PAGE_FIELDS)
    total = pages.count() if progress else 0
    chunk: list[Page] = []
    done = 0
    for page in pages.order_by("pk").iterator(chunk_size=RECONCILE_CHUNK):
        chunk.append(page)
        if len(chunk) == RECONCILE_CHUNK:
            yield from rule.public_among(chunk)
            done += len(chunk)
            chunk = []
            if progress:
                progress(done, total)
    yield from rule.public_among(chunk)
    if progress:
        progress(done + len(chunk), total)


def rebuild(
    *, new_epoch_too: bool = False, progress: Callable[[int, int], None] | None = None
) -> int | None:
    """`manage.py rebuild_changes`: reconcile the log with the pages (only what differs); with
    `new_epoch_too`, start it afresh under a new epoch: every row is dropped (deletions
    forgotten), every public page upserted, and cursors of the old epoch answered 410."""
    with transaction.atomic():
        if new_epoch_too:
            counter = ChangeCounter.objects.select_for_update().filter(pk=COUNTER_PK).first()
            PageChange.objects.all().delete()
            if counter is not None:
                counter.epoch = new_epoch()
                counter.save(update_fields=["epoch"])
        return reconcile_all(touch_all=new_epoch_too, progress=progress)
