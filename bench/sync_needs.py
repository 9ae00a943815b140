"""What a sync of the synthetic papers has to ask each source, and the wall time that implies.

Counted from the papers themselves and each API's batch sizes (the source clients' constants,
which follow the APIs' documented limits), over the whole run at once: the fewest requests any
sync could make, however it splits papers into tasks. The ceiling is the moment the slowest
source's limit lets its last request go: with a limit of L a second, n requests need
floor((n - 1) / L) seconds after the first, plus one round trip.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from sync.conf import sync_setting
from sync.sources import crossref, dblp, openalex, semanticscholar
from sync.sources.base import PaperQuery
from tests.standin import Catalog
from tests.standin.catalog import words

from .synthetic_papers import SyntheticPaper

PERIODS = {"second": 1.0, "minute": 60.0, "hour": 3600.0, "day": 86400.0}


def requests_needed(papers: Sequence[SyntheticPaper], catalog: Catalog) -> dict[str, int]:
    with_doi = [p for p in papers if p.doi]
    without_doi = [p for p in papers if not p.doi]
    no_doi_venues = set(sync_setting("SYNC_VENUES_WITHOUT_DOIS"))
    proceedings = Counter((p.venue, p.year) for p in papers)
    titles = [
        PaperQuery(paper_id=p.number, title=p.title, venue=p.venue, year=p.year)
        for p in without_doi
    ]
    s2_venues = sync_setting("SYNC_SEMANTIC_SCHOLAR_VENUES")
    s2_titles = 0
    for (venue, year), count in Counter((p.venue, p.year) for p in without_doi).items():
        if venue in s2_venues and count >= sync_setting("SYNC_LISTING_MIN_PAPERS"):
            listed = catalog.s2_by_venue.get(words(s2_venues[venue]), [])
            size = sum(1 for paper in listed if paper.get("year") == year)
            s2_titles += max(1, math.ceil(size / semanticscholar.BULK_PAGE))
        else:
            s2_titles += count
    return {
        "dblp": sum(math.ceil(n / dblp.MAX_HITS) for n in proceedings.values()),
        "crossref": math.ceil(len(with_doi) / crossref.DOI_BATCH)
        + sum(1 for p in without_doi if p.venue not in no_doi_venues),
        "openalex": math.ceil(len(with_doi) / openalex.DOI_BATCH)
        + sum(1 for _ in openalex.OpenAlexSource._title_batches(titles)),
        "semanticscholar": math.ceil(len(with_doi) / semanticscholar.BATCH_SIZE) + s2_titles,
    }


def per_period(limit: str) -> tuple[int, float]:
    """ "5/second" -> (5, 1.0)."""
    amount, _, unit = limit.partition("/")
    return int(amount), PERIODS[unit]


def ceiling_seconds(needed: dict[str, int], limits: dict[str, str], latency: float) -> float:
    """The least wall time the limits allow for `needed` requests (the slowest source's)."""
    times = [0.0]
    for source, count in needed.items():
        if count and source in limits:
            amount, period = per_period(limits[source])
            times.append((count - 1) // amount * period + latency)
    return max(times)
