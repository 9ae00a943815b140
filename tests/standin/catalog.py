"""What the stand-in knows: each source's records in that API's own schema, indexed for answers.

Tests fill a catalog from the recorded responses in tests/fixtures/; the benchmark builds one
for its synthetic papers (bench/upstream_catalog.py). Either way the records are exactly what the
real API would put in its answer; the stand-in only picks which ones to send.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)


def words(text: str | None) -> str:
    """Lower-cased words separated by single spaces: how the search engines tokenise titles."""
    return _NOT_WORD.sub(" ", (text or "").casefold()).strip()


def bare_doi(value: str | None) -> str:
    text = (value or "").strip().lower()
    return re.sub(r"^(https?://(dx\.)?doi\.org/|doi:)", "", text)


@dataclass
class Catalog:
    """Records per source. `dblp` maps a table-of-contents stream ("conf/nsdi/nsdi2024") to its
    hits; `dblp_other` holds hits in no table of contents the stand-in serves (CoRR preprints).
    """

    dblp: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    dblp_other: list[dict[str, Any]] = field(default_factory=list)
    crossref: list[dict[str, Any]] = field(default_factory=list)
    openalex: list[dict[str, Any]] = field(default_factory=list)
    semanticscholar: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.index()

    def index(self) -> None:
        """(Re)build the lookups; call after changing the record lists."""
        self.crossref_by_doi = {bare_doi(w.get("DOI")): w for w in self.crossref}
        self.crossref_words = [(words(_first(w.get("title"))), w) for w in self.crossref]
        self.openalex_by_doi: dict[str, list[dict]] = defaultdict(list)
        for work in self.openalex:
            if work.get("doi"):
                self.openalex_by_doi[bare_doi(work["doi"])].append(work)
        self.openalex_by_id = {
            str(w.get("id", "")).rsplit("/", 1)[-1].upper(): w for w in self.openalex
        }
        self.openalex_words = [(words(w.get("title")), w) for w in self.openalex]
        self.s2_by_id: dict[str, dict] = {}
        self.s2_by_venue: dict[str, list[dict]] = defaultdict(list)
        for paper in self.semanticscholar:
            self.s2_by_id[paper["paperId"]] = paper
            doi = (paper.get("externalIds") or {}).get("DOI")
            if doi:
                self.s2_by_id["DOI:" + bare_doi(doi)] = paper
            arxiv = (paper.get("externalIds") or {}).get("ArXiv")
            if arxiv:
                self.s2_by_id["ARXIV:" + str(arxiv).lower()] = paper
            self.s2_by_venue[words(paper.get("venue"))].append(paper)
        self.s2_words = [(words(p.get("title")), p) for p in self.semanticscholar]
        self.dblp_words = [
            (words(hit["info"].get("title")), hit)
            for hit in [*self.dblp_other, *(h for hits in self.dblp.values() for h in hits)]
        ]
        # Crossref's `filter=updates:{DOI}`: the notices whose `update-to` names a DOI.
        self.crossref_updates: dict[str, list[dict]] = defaultdict(list)
        for work in self.crossref:
            for update in work.get("update-to") or []:
                self.crossref_updates[bare_doi(update.get("DOI"))].append(work)

    def set_notices(self, doi: str, notices: list[dict[str, Any]] | None) -> None:
        """Crossref's `updated-by` of the work `doi` from now on (entries in Crossref's schema);
        empty or None removes it, as Crossref leaves the key out of a work nothing updates."""
        work = self.crossref_by_doi[bare_doi(doi)]
        if notices:
            work["updated-by"] = [dict(notice) for notice in notices]
        else:
            work.pop("updated-by", None)

    def set_retracted(self, doi: str, retracted: bool) -> None:
        """OpenAlex's `is_retracted` of the works with DOI `doi` from now on."""
        for work in self.openalex_by_doi[bare_doi(doi)]:
            work["is_retracted"] = retracted


def _first(value: Any) -> str:
    return value[0] if isinstance(value, list) and value else (value or "")
