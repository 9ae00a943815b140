"""Writes -> events: which event each recorded write is, and what its payload says.

Events come from the read path's one map (cms.apicache.stale): every write it records is sent
here with its `changed_urls`, so a payload lists exactly the API URLs the CDN purge gets. A
sync run's end comes from `sync_finished` (cms.papers.signals). Payloads are built inside the
writer's transaction (a deleted page is still readable) and stored as delivery rows there too,
so an event exists if and only if its write committed (cms.webhooks.outbox).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any
from urllib.parse import urljoin

from django.conf import settings
from django.db.models import Q
from django.db.models.signals import pre_delete
from django.urls import reverse
from wagtail.models import Page
from wagtail_localize.models import TranslationSource

from cms.api.visibility import anonymous_rule, shown_to_anyone
from cms.apicache import changes, stale

from . import outbox
from .models import Endpoint

PAGE_EVENTS = {
    stale.PUBLISH: "page.published",
    stale.UNPUBLISH: "page.unpublished",
    stale.DELETE: "page.deleted",
    stale.MOVE: "page.moved",
}


def api_url(name: str, pk: int) -> str:
    return urljoin(settings.WAGTAILAPI_BASE_URL, reverse(name, args=[pk]))


def page_summary(page: Page) -> dict[str, Any]:
    """A page as payloads name it: id, type, title, language, API detail URL and html_url."""
    try:
        html_url = page.get_full_url()
    except Page.DoesNotExist:  # a deleted page's site root may be gone with it
        html_url = None
    return {
        "id": page.pk,
        "type": page.specific_class._meta.label if page.specific_class else None,
        "title": page.title,
        "slug": page.slug,
        "locale": page.locale.language_code,
        "detail_url": api_url("wagtailapi:pages:detail", page.pk),
        "html_url": html_url,
    }


def is_translation(page: Page) -> bool:
    """Whether `page` is another language's page translated with wagtail-localize."""
    return (
        TranslationSource.objects.filter(object_id=page.translation_key)
        .exclude(locale_id=page.locale_id)
        .exists()
    )


def on_write(
    sender,
    write: stale.Write,
    changed_urls: Callable[[], list[str]],
    changes_cursor: Callable[[], str | None] | None = None,
    **kwargs,
) -> None:
    """Turn one recorded write into its events (writes with no event kind send none); each
    carries the changes feed's cursor after the write (`changes_cursor`, outbox.carrying)."""
    with outbox.carrying(changes_cursor):
        if write.kind in PAGE_EVENTS and write.page is not None:
            page_event(write, changed_urls)
        elif write.kind in {stale.PAPER, stale.PAPERS_SYNCED}:
            shown = cache(lambda: anonymous_rule().condition())  # once for a batch's papers
            for paper_id in sorted(write.paper_ids):
                paper_event(write, paper_id, changed_urls, shown)


# Set on a page about to be deleted: whether an anonymous reader was shown it (its own
# restriction is deleted before it, so this cannot be asked afterwards).
SHOWN_BEFORE_DELETE = "webhooks_shown_before_delete"


def was_shown(write: stale.Write) -> bool:
    """Whether the page of a page event was public before the write or is after it: events
    name only those (cms.api.visibility), so no draft, scheduled or private page's title,
    slug or address reaches a subscriber."""
    page = write.page
    if write.kind == stale.PUBLISH:
        return shown_to_anyone(page)
    if write.kind == stale.UNPUBLISH:
        return shown_to_anyone(page, live=True)
    if write.kind == stale.DELETE:
        return getattr(page, SHOWN_BEFORE_DELETE, False)
    old_parent = Page.objects.filter(pk=write.old_parent_id).first()
    return shown_to_anyone(page) or (
        old_parent is not None and shown_to_anyone(page, parent=old_parent)
    )


def note_shown_before_delete(sender, instance, **kwargs) -> None:
    if isinstance(instance, Page) and Endpoint.objects.filter(active=True).exists():
        setattr(instance, SHOWN_BEFORE_DELETE, shown_to_anyone(instance))


def page_event(write: stale.Write, changed_urls: Callable[[], list[str]]) -> None:
    page = write.page
    event_type = PAGE_EVENTS[write.kind]
    if write.kind == stale.PUBLISH and is_translation(page):
        event_type = "translation.published"

    def data() -> dict[str, Any] | None:
        if not was_shown(write):
            return None
        found: dict[str, Any] = {"page": page_summary(page), "changed_urls": changed_urls()}
        if write.kind == stale.MOVE:
            found["old_parent_id"] = write.old_parent_id
        if event_type == "translation.published":
            source = page.get_translations().filter(locale__language_code=settings.LANGUAGE_CODE)
            source = source.first()
            shown = source is not None and shown_to_anyone(source)
            found["source_page"] = page_summary(source) if shown else None
        return found

    outbox.enqueue(event_type, f"page:{page.pk}", page.locale.language_code, data)


def paper_event(
    write: stale.Write,
    paper_id: int,
    changed_urls: Callable[[], list[str]],
    shown: Callable[[], Q],
) -> None:
    from cms.digests.models import DigestPage
    from cms.papers.models import Paper
    from cms.papers.parts import paper_parts
    from cms.papers.serializers import standing_as_dict

    def data() -> dict[str, Any] | None:
        digests = list(DigestPage.objects.filter(shown(), paper_id=paper_id).order_by("pk"))
        if not digests:
            return None  # the papers API shows no paper no public digest shows
        paper = Paper.objects.filter(pk=paper_id).first()
        known = dict(write.paper_fields)
        if len(write.paper_ids) == 1:
            urls = changed_urls()
        else:  # this paper's share of a batch, from the same map
            urls = stale.changed_urls(stale.Write(write.kind, paper_ids=frozenset([paper_id])))
        # A retraction or a correction: what the paper says now (`retracted`, `updates`), as
        # the papers API does.
        standing = {}
        if paper is not None and "notices" in known.get(paper_id, ()):
            standing = standing_as_dict(paper_parts(paper))
        return {
            "paper": {
                "id": paper_id,
                "title": paper.title if paper else None,
                "deleted": paper is None,
                "detail_url": api_url("wagtailapi:papers:detail", paper_id),
                **standing,
            },
            "fields": list(known[paper_id]) if paper_id in known else None,
            "digests": [page_summary(digest) for digest in digests],
            "changed_urls": urls,
        }

    outbox.enqueue("paper.updated", f"paper:{paper_id}", None, data)


def on_sync_finished(sender, summary: dict[str, Any], paper_ids: list[int], **kwargs) -> None:
    def data() -> dict[str, Any]:
        urls = []
        if paper_ids:
            urls = stale.changed_urls(
                stale.Write(stale.PAPERS_SYNCED, paper_ids=frozenset(paper_ids))
            )
        # The run's batches are logged by now: the head is the cursor after all they wrote.
        return {
            "run": summary,
            "paper_ids": paper_ids,
            "changed_urls": urls,
            "changes_cursor": changes.head_cursor(),
        }

    outbox.enqueue("sync.finished", f"sync-run:{summary['id']}", None, data)


def connect() -> None:
    from cms.papers.signals import sync_finished

    stale.write_recorded.connect(on_write, dispatch_uid="webhooks-write")
    pre_delete.connect(note_shown_before_delete, dispatch_uid="webhooks-shown-before-delete")
    sync_finished.connect(on_sync_finished, dispatch_uid="webhooks-sync-finished")
