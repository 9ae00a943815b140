"""Reads for the sync: the papers to sync, in the order a run batches them, and what the
sources are asked about each one."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from itertools import zip_longest
from typing import Any

from django.db.models import Prefetch

from cms.papers.models import Paper, PaperAuthor, PaperNotice

from .matching import normalize_title
from .merge import ID_FIELDS, NOTICES
from .models import PaperSyncState
from .sources.base import PaperQuery

# A paper's notices as a list attribute, read without a queryset per paper (`notice_rows`).
NOTICE_ROWS = "synced_notice_rows"
NOTICES_PREFETCH = Prefetch(NOTICES, to_attr=NOTICE_ROWS)


def notice_rows(paper: Paper) -> Iterable[PaperNotice]:
    """The paper's notices: those NOTICES_PREFETCH read with it, else read now."""
    rows = getattr(paper, NOTICE_ROWS, None)
    return paper.notices.all() if rows is None else rows


def paper_snapshot(paper: Paper) -> dict[str, Any]:
    """The synced fields of a paper as plain values, the shape `merge.plan_changes` compares."""
    return {
        "title": paper.title,
        "abstract": paper.abstract,
        **{name: getattr(paper, name) for name in ID_FIELDS},
        "authors": [
            {
                "name": a.name,
                "given": a.given,
                "family": a.family,
                "orcid": a.orcid,
                "affiliations": list(a.affiliations or []),
            }
            for a in paper.authors.all()
        ],
        "affiliations": [a.name for a in paper.affiliations.all()],
        "links": [{"label": link.label, "url": link.url} for link in paper.links.all()],
        NOTICES: [
            {
                "doi": notice.notice_doi,
                "type": notice.update_type,
                "label": notice.label,
                "source": notice.source,
                "record_id": notice.record_id,
                "date": notice.updated_on.isoformat() if notice.updated_on else None,
            }
            for notice in notice_rows(paper)
        ],
    }


def paper_query(paper: Paper) -> PaperQuery:
    first = next(iter(paper.authors.all()), None)
    return PaperQuery(
        paper_id=paper.pk,
        title=paper.title,
        venue=paper.venue,
        year=paper.year,
        doi=paper.doi,
        first_author=first.name if first else "",
        ids=paper.ids,
    )


def paper_queries(ids: list[int]) -> list[PaperQuery]:
    """`paper_query` of each paper, from two light queries: the sources can start before the
    papers themselves (authors, affiliations, links) are loaded for merging."""
    first_authors: dict[int, str] = {}
    for paper_id, name in (
        PaperAuthor.objects.filter(paper_id__in=ids)
        .order_by("paper_id", "sort_order", "pk")
        .values_list("paper_id", "name")
    ):
        first_authors.setdefault(paper_id, name)
    queries = []
    rows = Paper.objects.filter(pk__in=ids).values_list("pk", "title", "venue", "year", *ID_FIELDS)
    for pk, title, venue, year, *values in rows:
        known = dict(zip(ID_FIELDS, values, strict=True))
        queries.append(
            PaperQuery(
                paper_id=pk,
                title=title,
                venue=venue,
                year=year,
                doi=known["doi"],
                first_author=first_authors.get(pk, ""),
                ids={name: value for name, value in known.items() if value},
            )
        )
    return queries


def batch_order(rows: Iterable[tuple[int, int, str]]) -> list[int]:
    """Paper ids from (id, year, venue) rows, in the order a run batches them: year by year,
    the venues of a year interleaved.

    So every batch has work for every source - DOI lookups for Crossref, title lookups for
    the venues without DOIs - and none waits on one source while the others idle, while a
    batch still spans only a year's few proceedings (a table of contents each).
    """
    by_year: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for pk, year, venue in sorted(rows):
        by_year[year][venue].append(pk)
    order: list[int] = []
    for year in sorted(by_year):
        venues = [by_year[year][venue] for venue in sorted(by_year[year])]
        order += [pk for group in zip_longest(*venues) for pk in group if pk is not None]
    return order


def paper_ids_for_sync_all() -> list[int]:
    return batch_order(Paper.objects.values_list("pk", "year", "venue"))


def never_synced(paper_ids: list[int]) -> list[int]:
    """Those of `paper_ids` no sync has completed (no sync state, or never synced), in order."""
    synced = set(
        PaperSyncState.objects.filter(
            paper_id__in=paper_ids, last_synced_at__isnull=False
        ).values_list("paper_id", flat=True)
    )
    return [pk for pk in paper_ids if pk not in synced]


def existing_paper(
    *,
    doi: str = "",
    dblp_key: str = "",
    arxiv_id: str = "",
    title: str = "",
    year: int | None = None,
) -> Paper | None:
    """The paper the site already has with one of these identifiers, or with the same
    normalised title in the same year: an editor's lookup links it instead of adding another."""
    for field, value in (("doi", doi.lower()), ("dblp_key", dblp_key), ("arxiv_id", arxiv_id)):
        if value:
            paper = Paper.objects.filter(**{f"{field}__iexact": value}).first()
            if paper is not None:
                return paper
    if title and year:
        wanted = normalize_title(title)
        for pk, other in Paper.objects.filter(year=year).values_list("pk", "title"):
            if normalize_title(other) == wanted:
                return Paper.objects.get(pk=pk)
    return None
