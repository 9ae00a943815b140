"""An in-memory source for tests and demos: records are registered, no HTTP at all."""

from __future__ import annotations

from collections.abc import Iterator

from ..errors import SourceError
from ..matching import best_match
from .base import FetchResult, PaperQuery, PaperRecord, Source

_RECORDS: dict[str, list[PaperRecord]] = {}
_FAILURES: dict[str, str] = {}


def register(source: str, *records: PaperRecord) -> None:
    _RECORDS.setdefault(source, []).extend(records)


def fail(source: str, message: str) -> None:
    """Make every fetch from `source` fail with `message` (a source that is down)."""
    _FAILURES[source] = message


def clear() -> None:
    _RECORDS.clear()
    _FAILURES.clear()


class DummySource(Source):
    label = "Dummy"

    def fetch_each(self, queries: list[PaperQuery]) -> Iterator[tuple[list[int], FetchResult]]:
        result = FetchResult()
        self.sending()  # no HTTP: one request per fetch, as a batched source would
        if self.name in _FAILURES:
            result.fail(queries, SourceError(_FAILURES[self.name]))
        else:
            result.match(queries, lambda query: best_match(query, _RECORDS.get(self.name, [])))
        yield [query.paper_id for query in queries], result
