"""Asking every source about a batch of papers at once, each at its own pace.

Each source waits on its own rate limit (and the network), so asking them one after the other
would make a batch take the sum of their times; asked side by side (a thread each: the work is
waiting, not computing) it takes the slowest one's. Answers come out per paper as soon as every
source has answered for it, so the batch can write the first papers while the slowest source is
still asking about the last ones.

The first configured source (DBLP) leads: a paper that lacks what the others look papers up by
- a DOI where the venue registers them, or DBLP's placement in a proceedings, which gates title
searches - goes to the others only once the lead is done, with the DOI and ids the lead found
(a DBLP DOI lets Crossref batch it). Every other paper goes to every source straight away.
"""

from __future__ import annotations

import dataclasses
import queue
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor

from django.db import connection

from .conf import sync_setting
from .errors import SourceError
from .sources import get_sources
from .sources.base import FetchResult, PaperQuery, PaperRecord, Source


@dataclasses.dataclass
class PaperAnswers:
    """What every source said about one paper."""

    paper_id: int
    records: dict[str, PaperRecord]
    errors: dict[str, str]
    retry_later: bool


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


class Fetch:
    """Start the sources on `queries`, then iterate to get each paper's answers when complete.

    `close()` (also on leaving the iteration early) stops the sources after their current
    request. `requests` counts what each source asked, once the iteration is over;
    `count_request(source name)` is called in the source's thread before each request goes out.
    With a `deadline` (and `fail_fast`) someone is waiting: see `lookup`.
    """

    def __init__(
        self,
        queries: Iterable[PaperQuery],
        source_names: list[str] | None = None,
        *,
        listing_scope: str = "",
        count_request: Callable[[str], None] | None = None,
        deadline: float | None = None,
        fail_fast: bool = False,
    ):
        self.deadline = deadline  # time.monotonic() after which sources still asking are given up
        self.queries = {query.paper_id: query for query in queries}
        self.sources = get_sources(
            source_names,
            listing_scope=listing_scope,
            count_request=count_request,
            fail_fast=fail_fast,
        )
        self._events: queue.Queue = queue.Queue()
        self._cancel = threading.Event()
        self._lead_done = threading.Event()
        self._lead_found: dict[int, PaperRecord] = {}
        self._pool: ThreadPoolExecutor | None = None

    @property
    def requests(self) -> Counter:
        return Counter({source.name: source.requests_made for source in self.sources})

    @property
    def records_skipped(self) -> Counter:
        """Records each source sent that could not be read (skipped, never fatal)."""
        return +Counter({source.name: source.records_skipped for source in self.sources})

    def start(self) -> Fetch:
        if not self.sources or not self.queries:
            return self
        lead, followers = self.sources[0], self.sources[1:]
        waiting = {pk for pk, query in self.queries.items() if needs_lead(query)}
        self._pool = ThreadPoolExecutor(len(self.sources), thread_name_prefix="sync-source")
        self._pool.submit(self._run, lead, list(self.queries.values()), [])
        now = [q for pk, q in self.queries.items() if pk not in waiting]
        for source in followers:
            self._pool.submit(self._run, source, now, sorted(waiting))
        return self

    def close(self) -> None:
        self._cancel.set()
        self._lead_done.set()  # no follower keeps waiting for a lead that was told to stop
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # -- the sources' threads ------------------------------------------------------------------

    def _run(self, source: Source, now: list[PaperQuery], after_lead: list[int]) -> None:
        try:
            self._ask(source, now)
            if after_lead:
                self._lead_done.wait()
                found = self._lead_found
                self._ask(
                    source,
                    [
                        learn(self.queries[pk], found[pk]) if pk in found else self.queries[pk]
                        for pk in after_lead
                    ],
                )
        except BaseException as error:  # a bug, not a source's fault: the batch re-raises it
            self._events.put(("crash", source.name, error))
        finally:
            if source is self.sources[0]:
                self._lead_done.set()
            connection.close()  # this thread's own, if its request counter opened one
            self._events.put(("done", source.name, None))

    def _ask(self, source: Source, queries: list[PaperQuery]) -> None:
        answered: set[int] = set()
        try:
            for papers, part in source.fetch_each(queries) if queries else ():
                if source is self.sources[0]:
                    self._lead_found.update(part.records)
                answered.update(papers)
                self._events.put(("part", source.name, (papers, part)))
                if self._cancel.is_set():
                    return
        except SourceError as error:  # a source that fails as a whole fails only itself
            left = [q.paper_id for q in queries if q.paper_id not in answered]
            failed = FetchResult(errors=dict.fromkeys(left, str(error)))
            if error.retry_later:
                failed.retry_later = set(left)
            self._events.put(("part", source.name, (left, failed)))

    def _time_left(self) -> float | None:
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    # -- the batch's side ----------------------------------------------------------------------

    def __iter__(self) -> Iterator[PaperAnswers]:
        names = [source.name for source in self.sources]
        pending = {pk: set(names) for pk in self.queries}
        answers = {pk: PaperAnswers(pk, {}, {}, False) for pk in self.queries}
        running = len(self.sources) if self._pool is not None else 0
        try:
            if not running:
                yield from answers.values()
                return
            while running:
                try:
                    kind, name, payload = self._events.get(timeout=self._time_left())
                except queue.Empty:  # the deadline passed: what is still pending is an error
                    shown = {source.name: source.display_name for source in self.sources}
                    for pk, left in pending.items():
                        for name in left:
                            answers[pk].errors[name] = f"{shown[name]} did not answer in time"
                        yield answers[pk]
                    return
                if kind == "crash":
                    raise payload
                if kind == "part":
                    papers, part = payload
                    for pk, record in part.records.items():
                        answers[pk].records[name] = record
                    for pk, message in part.errors.items():
                        answers[pk].errors[name] = message
                    for pk in part.retry_later:
                        answers[pk].retry_later = True
                else:
                    running -= 1
                    papers = [pk for pk, left in pending.items() if name in left]
                for pk in papers:
                    left = pending.get(pk)
                    if left is None:
                        continue
                    left.discard(name)
                    if not left:
                        del pending[pk]
                        yield answers.pop(pk)
        finally:
            self.close()
