"""Discovery: papers of a proceedings' DBLP table of contents that the site lacks."""

from __future__ import annotations

from functools import partial

from django.utils import timezone

from cms.papers.models import Paper

from .errors import SourceError
from .matching import best_match
from .models import DiscoveryCandidate, SyncRun
from .runs import count_request
from .selectors import paper_query
from .sources import get_sources
from .sources.dblp import DblpSource


def discover_candidates(*, venue: str, year: int, run: SyncRun | None = None) -> int:
    """List the proceedings on DBLP and keep the papers the site lacks as candidates.

    Candidates wait for an editor; nothing is published or turned into a Paper here.
    """
    counter = partial(count_request, run.pk) if run is not None else None
    sources = get_sources(["dblp"], count_request=counter)
    dblp = next((s for s in sources if isinstance(s, DblpSource)), None)
    if dblp is None:
        raise SourceError("discovery needs the dblp source to be configured")
    records = dblp.table_of_contents(venue, year)
    papers = list(
        Paper.objects.filter(year__in=[year - 1, year, year + 1], venue=venue).prefetch_related(
            "authors"
        )
    )
    known_keys = {p.dblp_key for p in papers if p.dblp_key}
    known_dois = {p.doi for p in papers if p.doi}
    created = 0
    for record in records:
        key = record.ids.get("dblp_key", "")
        if not key or key in known_keys or (record.doi and record.doi in known_dois):
            continue
        if any(best_match(paper_query(p), [record]) for p in papers):
            continue
        _, was_created = DiscoveryCandidate.objects.get_or_create(
            dblp_key=key,
            defaults={
                "venue": venue,
                "year": year,
                "title": record.title[:500],
                "authors": [a.name for a in record.authors],
                "doi": record.doi,
                "url": f"https://doi.org/{record.doi}" if record.doi else "",
                "run": run,
            },
        )
        created += was_created
    if run is not None:
        SyncRun.objects.filter(pk=run.pk).update(
            papers_matched=len(records),
            papers_changed=created,
            status=SyncRun.Status.FINISHED,
            finished_at=timezone.now(),
        )
    return created
