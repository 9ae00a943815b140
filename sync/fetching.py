"""Asking every source about a batch of papers at once, each at its own pace.

Each source waits on its own rate limit (and the network), so asking them one after the other
would make a batch take the sum of their times; asked side by side (a thread each: the work is
waiting, not computing) it takes the slowest one's. The first configured source (DBLP) leads:
a paper that lacks what the others look papers up by - a DOI where the venue registers them, or
DBLP's placement in a proceedings, which gates title searches - goes to the others only after
the lead has answered for it, with the DOI and ids the lead found (a DBLP DOI lets Crossref
batch it). Every other paper goes to every source straight away.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable
from concurrent.futures import Future, ThreadPoolExecutor

from .conf import sync_setting
from .sources import get_sources
from .sources.base import FetchResult, PaperQuery, PaperRecord, Source, SourceError


@dataclasses.dataclass
class Fetched:
    """Records and errors per paper and source, for one batch."""

    records: dict[int, dict[str, PaperRecord]]
    errors: dict[int, dict[str, str]]
    retry_later: set[int]
    requests: Counter


def learn(query: PaperQuery, record: PaperRecord) -> PaperQuery:
    """Carry the ids a source found to the sources after it."""
    ids = {**record.ids, **query.ids}
    doi = query.doi or ("" if record.is_preprint else record.doi)
    return dataclasses.replace(query, doi=doi, ids=ids)


def needs_lead(query: PaperQuery) -> bool:
    """Whether the lead source may give this paper what the other sources look it up by."""
    if query.doi:
        return False
    registers_dois = query.venue not in set(sync_setting("SYNC_VENUES_WITHOUT_DOIS"))
    return registers_dois or not query.ids.get("dblp_key")


def _ask(source: Source, queries: list[PaperQuery]) -> FetchResult:
    if not queries:
        return FetchResult()
    try:
        return source.fetch(queries)
    except SourceError as error:  # a source that fails as a whole fails only itself
        result = FetchResult(errors={q.paper_id: str(error) for q in queries})
        if error.retry_later:
            result.retry_later = {q.paper_id for q in queries}
        return result


def _merge(*results: FetchResult) -> FetchResult:
    merged = FetchResult()
    for result in results:
        merged.records.update(result.records)
        merged.errors.update(result.errors)
        merged.retry_later |= result.retry_later
    return merged


def _follow(
    source: Source, queries: dict[int, PaperQuery], waiting: set[int], lead: Future | None
) -> FetchResult:
    now = _ask(source, [q for pk, q in queries.items() if pk not in waiting])
    if not waiting:
        return now
    found = lead.result().records if lead is not None else {}
    later = [learn(queries[pk], found[pk]) if pk in found else queries[pk] for pk in waiting]
    return _merge(now, _ask(source, later))


def fetch_records(
    queries: Iterable[PaperQuery], source_names: list[str] | None = None, *, listing_scope: str = ""
) -> Fetched:
    """Ask every configured source (or those named) about `queries`, side by side."""
    by_pk = {query.paper_id: query for query in queries}
    sources = get_sources(source_names, listing_scope=listing_scope)
    if not sources or not by_pk:
        return Fetched({pk: {} for pk in by_pk}, {pk: {} for pk in by_pk}, set(), Counter())
    lead, followers = sources[0], sources[1:]
    waiting = {pk for pk, query in by_pk.items() if needs_lead(query)}
    with ThreadPoolExecutor(max_workers=len(sources), thread_name_prefix="sync-source") as pool:
        lead_future = pool.submit(_ask, lead, list(by_pk.values()))
        futures = {lead.name: lead_future} | {
            source.name: pool.submit(_follow, source, by_pk, waiting, lead_future)
            for source in followers
        }
        results = {name: future.result() for name, future in futures.items()}
    fetched = Fetched(
        records={pk: {} for pk in by_pk},
        errors={pk: {} for pk in by_pk},
        retry_later=set(),
        requests=Counter({source.name: source.requests_made for source in sources}),
    )
    for name, result in results.items():
        for pk, record in result.records.items():
            fetched.records[pk][name] = record
        for pk, message in result.errors.items():
            fetched.errors[pk][name] = message
        fetched.retry_later |= result.retry_later
    return fetched
