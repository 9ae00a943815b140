"""Semantic Scholar: abstracts, arXiv and DBLP ids, and a title matcher for papers without DOI.

API: https://api.semanticscholar.org/api-docs/graph (`POST /graph/v1/paper/batch` with up to 500
ids, `GET /graph/v1/paper/search/match`, `GET /graph/v1/paper/search/bulk` whose text query is
optional: filtered by `venue` and `year` it lists up to 1,000 papers a call, with a continuation
`token`), `x-api-key` header. Quirks handled: the batch answer has `null` where an id is unknown;
search/match answers 404 when nothing matches.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterator
from functools import partial
from typing import Any

from ..conf import sync_setting
from ..errors import SourceError
from ..identifiers import ARXIV, DOI, SEMANTIC_SCHOLAR, Identifier
from ..matching import best_match
from ..text import bare_doi, clean_abstract, clean_person_name, clean_text, clean_title
from .base import AuthorRecord, FetchResult, PaperQuery, PaperRecord, Source, chunks

BATCH_PATH = "/graph/v1/paper/batch"
MATCH_PATH = "/graph/v1/paper/search/match"
BULK_PATH = "/graph/v1/paper/search/bulk"
BULK_PAGE = 1000  # papers per bulk-search call
MAX_BULK_PAGES = 10
BATCH_SIZE = 500
FIELDS = "paperId,externalIds,url,title,venue,year,authors,abstract,publicationTypes,openAccessPdf"


class SemanticScholarSource(Source):
    label = "Semantic Scholar"

    def _headers(self) -> dict[str, str] | None:
        key = self.options.get("api_key")
        return {"x-api-key": key} if key else None

    def _by_ids(self, ids: list[str]) -> Any:
        """The batch endpoint's answer: a paper, or `null` for an unknown id, per id."""
        return self.get_json(
            BATCH_PATH,
            method="POST",
            params={"fields": FIELDS},
            body={"ids": ids},
            headers=self._headers(),
        )

    @staticmethod
    def _lookup_id(query: PaperQuery) -> str:
        if query.ids.get("semantic_scholar_id"):
            return query.ids["semantic_scholar_id"]
        return f"DOI:{query.doi}" if query.doi else ""

    def fetch_each(self, queries: list[PaperQuery]) -> Iterator[tuple[list[int], FetchResult]]:
        known = [q for q in queries if self._lookup_id(q)]
        for batch in chunks(known, BATCH_SIZE):
            yield [q.paper_id for q in batch], self._batch(batch)
        venues = sync_setting("SYNC_SEMANTIC_SCHOLAR_VENUES")
        by_year: dict[tuple[str, int], list[PaperQuery]] = defaultdict(list)
        for query in queries:
            if not self._lookup_id(query):
                by_year[(query.venue, query.year)].append(query)
        for (venue, year), group in by_year.items():
            name = f"{venue}:{year}"
            if venue in venues and (
                len(group) >= sync_setting("SYNC_LISTING_MIN_PAPERS") or self.has_listing(name)
            ):
                listing = partial(self.listing, name, partial(self._bulk, venues[venue], year))
                yield [q.paper_id for q in group], self.found_in(group, listing)
            else:
                for query in group:
                    match = partial(self._match, query)
                    yield [query.paper_id], self.found_in([query], match, indexed=False)

    def _batch(self, batch: list[PaperQuery]) -> FetchResult:
        result = FetchResult()
        try:
            data = self._by_ids([self._lookup_id(q) for q in batch])
            if not isinstance(data, list) or len(data) != len(batch):
                raise SourceError("semanticscholar: batch answer does not line up with ids")
        except SourceError as error:
            result.fail(batch, error)
            return result
        for query, paper in zip(batch, data, strict=True):
            found = self.parse_all([paper], self.parse_paper)  # none for an unknown id's `null`
            record = found[0] if found else None
            if record is not None and (record.doi == query.doi or best_match(query, [record])):
                result.records[query.paper_id] = record
        return result

    def _bulk(self, venue: str, year: int) -> list[PaperRecord]:
        params = {"venue": venue, "year": str(year), "fields": FIELDS}
        records: list[PaperRecord] = []
        for _page in range(MAX_BULK_PAGES):
            data = self.get_json(BULK_PATH, params=params, headers=self._headers())
            with self.shape_checked():
                papers = _papers(data["data"])
                token = data.get("token")
            records += self.parse_all(papers, self.parse_paper)
            if not token:
                break
            params = {**params, "token": token}
        return records

    def _match(self, query: PaperQuery) -> list[PaperRecord]:
        data = self.get_json(
            MATCH_PATH,
            params={"query": query.title, "fields": FIELDS},
            headers=self._headers(),
            missing_ok=True,
        )
        if data is None:  # 404: nothing matches
            return []
        with self.shape_checked():
            papers = _papers(data.get("data"))
        return self.parse_all(papers, self.parse_paper)

    def resolve(self, identifier: Identifier) -> list[PaperRecord]:
        # Titles are left to DBLP and Crossref: this source allows one request a second.
        prefix = {DOI: "DOI:", ARXIV: "ARXIV:", SEMANTIC_SCHOLAR: ""}.get(identifier.kind)
        if prefix is None:
            return []
        data = self._by_ids([f"{prefix}{identifier.value}"])
        return self.parse_all(data if isinstance(data, list) else [], self.parse_paper)

    def parse_paper(self, paper: dict[str, Any] | None) -> PaperRecord | None:
        if not isinstance(paper, dict):
            return None
        title = clean_title(paper.get("title"))
        if not title:
            return None
        external = paper.get("externalIds") or {}
        ids = {}
        if paper.get("paperId"):
            ids["semantic_scholar_id"] = paper["paperId"]
        if external.get("ArXiv"):
            ids["arxiv_id"] = str(external["ArXiv"])
        if external.get("DBLP"):
            ids["dblp_key"] = str(external["DBLP"])
        links = []
        pdf = (paper.get("openAccessPdf") or {}).get("url")
        if pdf:
            links.append(("PDF", pdf))
        venue = clean_text(paper.get("venue"))
        return PaperRecord(
            source=self.name,
            title=title,
            raw_title=str(paper.get("title")),
            year=paper.get("year") if isinstance(paper.get("year"), int) else None,
            authors=[
                AuthorRecord.person(name)
                for a in paper.get("authors") or []
                if isinstance(a, dict) and (name := clean_person_name(a.get("name")))
            ],
            doi=bare_doi(external.get("DOI")),
            ids=ids,
            abstract=clean_abstract(paper.get("abstract")),
            links=links,
            venue=venue,
            is_preprint=venue.lower() in {"arxiv", "arxiv.org"}
            and "Conference" not in (paper.get("publicationTypes") or []),
        )


def _papers(value: Any) -> list:
    """An answer's `data`: a list of papers, or none (read inside `shape_checked`)."""
    if value is None:
        return []
    if not isinstance(value, list):
        raise TypeError("data is not a list")
    return value
