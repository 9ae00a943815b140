"""`translation_status` as the public API shows it: published facts only.

The admin's report (cms.translation.status.statuses) shows where a translation job stands, drafts
included: strings translated but not yet published, who translated them, the source's ids. A
reader of the API sees the live page, so its status is made of what was published:

- segments count as translated only if their translation existed when the page was last
  published (`created_at` at or before `last_published_at`), so a translator's unpublished work
  does not move the live page's status; there is no "unpublished" state;
- `out_of_date` also holds while the live page predates the source's last publish (a sync
  not yet published leaves the live page as it was);
- `translated_at` is when the live translation was published; no staff names at all;
- the source page's id and revision ids only when the source itself is public to the same
  request (cms.api.visibility decides), else null.

Known limit: a machine-translated segment that a translator reviews in a draft counts as
reviewed before it is published (wagtail-localize keeps no history of a string's type, so
its type at the last publish is not known); the segment counts stay those of the publish.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.db.models import OuterRef, Q, Subquery
from wagtail.models import Page
from wagtail_localize.models import Translation

from cms.translation.status.statuses import (
    json_datetime,
    segment_facts,
    summary_state,
    translation_rows,
)


@functools.cache
def _published_translations():
    """Translations annotated with the facts of their pages' last publish, built once."""
    target_page = Page.objects.filter(
        translation_key=OuterRef("source__object_id"), locale_id=OuterRef("target_locale_id")
    )
    # A string translation counts once it existed at the translated page's last publish.
    published = Q(created_at__lte=OuterRef(OuterRef("target_published_at")))
    return Translation.objects.annotate(
        target_published_at=Subquery(target_page.values("last_published_at")[:1])
    ).annotate(**segment_facts(published))


def public_translation_statuses(pages: Iterable[Page], *, public: Q) -> dict[int, dict[str, Any]]:
    """The API's `translation_status` of every page in `pages` that is a translation.

    `public` is the request's public-page condition (cms.api.visibility): a source page
    outside it is not named. One query for any number of pages.
    """
    public_source = Page.objects.filter(
        public,
        translation_key=OuterRef("source__object_id"),
        locale_id=OuterRef("source__locale_id"),
    )
    translations = _published_translations().annotate(
        public_source_id=Subquery(public_source.values("pk")[:1])
    )
    return {
        page.pk: public_status(page, row)
        for page, row in translation_rows(translations, pages, "public_source_id")
    }


def public_status(page: Page, row: dict[str, Any]) -> dict[str, Any]:
    """One page's public status from its row of the query above."""
    source = row["source_page"] or {}
    source_is_public = row["public_source_id"] is not None
    source_published_at = json_datetime(source.get("published_at"))
    synced_at: datetime = row["source__last_updated_at"]
    published_at = page.last_published_at
    live_since = min(synced_at, published_at) if published_at is not None else None
    out_of_date = source_published_at is not None and (
        live_since is None or source_published_at > live_since
    )
    total, translated = row["total_segments"], row["translated_segments"]
    machine = row["machine_segments"]
    return {
        "state": summary_state(
            out_of_date=out_of_date, total=total, translated=translated, machine=machine
        ),
        "out_of_date": out_of_date,
        "percent_translated": translated * 100 // total if total else 100,
        "segments": {"total": total, "translated": translated, "machine": machine},
        "source_page_id": source.get("id") if source_is_public else None,
        "source_revision_id": source.get("revision_id") if source_is_public else None,
        "synced_revision_id": row["synced_revision_id"] if source_is_public else None,
        "translated_revision_id": page.live_revision_id,
        "synced_at": synced_at,
        "translated_at": published_at,
    }
