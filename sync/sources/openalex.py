"""OpenAlex: authors linked to institutions, arXiv ids, open-access links.

API: https://docs.openalex.org/api-entities/works (`/works?filter=doi:A|B` ORs up to 50 values;
`filter=title.search:"a" OR "b"` finds titles, boolean search working in search filters too),
`api_key`/`mailto` parameters. Quirks handled: abstracts come only as an
`abstract_inverted_index` (word -> positions); ids and DOIs are URLs; preprints are type
`preprint`.

`is_retracted` is OpenAlex's own flag (Retraction Watch's data among its inputs). A work's
`locations` name its versions (`version`: submittedVersion, acceptedVersion, publishedVersion):
a published work's preprint on a repository, or a preprint's published version at a journal
or conference, gives the other's DOI.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import partial
from typing import Any
from urllib.parse import quote

from ..identifiers import ARXIV, DOI, OPENALEX, TITLE, Identifier
from ..text import (
    bare_doi,
    bare_orcid,
    clean_abstract,
    clean_person_name,
    clean_text,
    clean_title,
)
from .base import AuthorRecord, FetchResult, PaperQuery, PaperRecord, Source, chunks

WORKS_PATH = "/works"
DOI_BATCH = 50  # OpenAlex's limit for OR-ed filter values
# Titles ORed into one title search while the filter stays this long URL-encoded: OpenAlex
# refuses request URLs over about 4 KB. Each search costs ten times a list call in credits.
TITLE_FILTER_BUDGET = 3000
# OpenAlex splits `filter` at commas, ORs values at "|" and ANDs them at "+", and documents no
# escape: a DOI holding one is asked for alone, at the work's own address (`/works/doi:{doi}`,
# free of list credits too).
FILTER_SEPARATORS = ",|+"
PER_PAGE = 200  # OpenAlex's largest page
MAX_PAGES = 5
_WORD = re.compile(r"[^\W_]+")
SELECT = (
    "id,doi,title,display_name,publication_year,type,authorships,abstract_inverted_index,"
    "ids,primary_location,locations,is_retracted"
)
# Where a published work's preprint lives, and where a preprint's published version does.
PREPRINT_SOURCE_TYPES = frozenset({"repository"})
PUBLISHED_SOURCE_TYPES = frozenset({"journal", "conference"})
_ARXIV_ABS = re.compile(r"arxiv\.org/abs/([^?#]+?)(?:v\d+)?/?$", re.IGNORECASE)


def abstract_from_inverted_index(index: dict[str, list[int]] | None) -> str:
    """Rebuild the abstract text from OpenAlex's {word: [positions]} form."""
    if not isinstance(index, dict):
        return ""
    positions: dict[int, str] = {}
    for word, places in index.items():
        for place in places if isinstance(places, list) else []:
            if isinstance(place, int):
                positions[place] = word
    return " ".join(positions[i] for i in sorted(positions))


class OpenAlexSource(Source):
    label = "OpenAlex"

    def _params(self, **params: Any) -> dict[str, Any]:
        if self.options.get("api_key"):
            params["api_key"] = self.options["api_key"]
        return self.polite_params(**params)

    def fetch_each(self, queries: list[PaperQuery]) -> Iterator[tuple[list[int], FetchResult]]:
        with_doi = [q for q in queries if q.doi]
        for query in [q for q in with_doi if not fits_filter(q.doi)]:
            work = partial(self._single, f"doi:{query.doi}")
            yield [query.paper_id], self.found_in([query], work)
        for batch in chunks([q for q in with_doi if fits_filter(q.doi)], DOI_BATCH):
            params = self._params(
                filter="doi:" + "|".join(q.doi for q in batch),
                **{"per-page": len(batch)},
                select=SELECT,
            )
            yield [q.paper_id for q in batch], self.found_in(batch, partial(self._works, params))
        # Title searches only for papers DBLP has placed (so they are published) that have no
        # DOI, as USENIX papers; many titles go in one boolean search.
        placed = [q for q in queries if not q.doi and q.ids.get("dblp_key")]
        for batch in self._title_batches(placed):
            low = min(q.year for q in batch) - 1
            high = max(q.year for q in batch) + 1
            titles = " OR ".join(f'"{_phrase(q.title)}"' for q in batch)
            params = self._params(
                filter=f"title.search:{titles},publication_year:{low}-{high}",
                **{"per-page": PER_PAGE},
                select=SELECT,
            )
            yield [q.paper_id for q in batch], self.found_in(batch, partial(self._works, params))

    @staticmethod
    def _title_batches(queries: list[PaperQuery]) -> Iterator[list[PaperQuery]]:
        batch: list[PaperQuery] = []
        length = 0
        for query in queries:
            size = len(quote(f' OR "{_phrase(query.title)}"'))
            if batch and length + size > TITLE_FILTER_BUDGET:
                yield batch
                batch, length = [], 0
            batch.append(query)
            length += size
        if batch:
            yield batch

    def _works(self, params: dict) -> list[PaperRecord]:
        works: list = []
        with self.shape_checked():
            for page in range(1, MAX_PAGES + 1):
                data = self.get_json(WORKS_PATH, params={**params, "page": page})
                results = _results(data)
                works += results
                if len(works) >= data["meta"]["count"] or not results:
                    break
        return self.parse_all(works, self.parse_work)

    def _single(self, key: str) -> list[PaperRecord]:
        """The work at its own address (free of list credits): an id, or `doi:<doi>`."""
        work = self.get_json(
            f"{WORKS_PATH}/{quote(key, safe='/:')}",
            params=self._params(select=SELECT),
            missing_ok=True,
        )
        if work is None:  # 404: no such work
            return []
        with self.shape_checked():
            if not isinstance(work, dict):
                raise TypeError("the work is not an object")
        return self.parse_all([work], self.parse_work)

    def resolve(self, identifier: Identifier) -> list[PaperRecord]:
        if identifier.kind == OPENALEX:
            return self._single(identifier.value)
        if identifier.kind == DOI and not fits_filter(identifier.value):
            return self._single(f"doi:{identifier.value}")
        if identifier.kind == DOI:
            value = f"doi:{identifier.value}"
        elif identifier.kind == ARXIV:  # arXiv registers DOIs for its papers: 10.48550/arXiv.<id>
            value = f"doi:10.48550/arxiv.{identifier.value}"
        elif identifier.kind == TITLE:
            value = f'title.search:"{_phrase(identifier.value)}"'
            if identifier.year:
                value += f",publication_year:{identifier.year - 1}-{identifier.year + 1}"
        else:
            return []
        data = self.get_json(
            WORKS_PATH, params=self._params(filter=value, select=SELECT, **{"per-page": 10})
        )
        with self.shape_checked():  # as a sync reads it: another shape is an error
            works = _results(data)
        return self.parse_all(works, self.parse_work)

    def parse_work(self, work: dict[str, Any]) -> PaperRecord | None:
        if not isinstance(work, dict):
            return None
        title = clean_title(work.get("title") or work.get("display_name"))
        if not title:
            return None
        authors = []
        for authorship in work.get("authorships") or []:
            author = authorship.get("author") or {}
            name = clean_person_name(
                author.get("display_name") or authorship.get("raw_author_name")
            )
            if not name:
                continue
            institutions = tuple(
                clean_text(inst.get("display_name"))
                for inst in authorship.get("institutions") or []
                if isinstance(inst, dict) and inst.get("display_name")
            ) or tuple(clean_text(raw) for raw in authorship.get("raw_affiliation_strings") or [])
            authors.append(
                AuthorRecord.person(
                    name,
                    orcid=bare_orcid(author.get("orcid")),
                    affiliations=institutions,
                )
            )
        ids: dict[str, str] = {}
        openalex_url = (work.get("ids") or {}).get("openalex") or work.get("id") or ""
        if openalex_url:
            ids["openalex_id"] = openalex_url.rsplit("/", 1)[-1]
        links = []
        location = work.get("primary_location") or {}
        if location.get("landing_page_url"):
            links.append(("Publisher", location["landing_page_url"]))
        if location.get("pdf_url"):
            links.append(("PDF", location["pdf_url"]))
        doi = bare_doi(work.get("doi"))
        if doi.startswith("10.48550/arxiv."):  # arXiv's own DOI names the preprint
            ids["arxiv_id"] = doi.removeprefix("10.48550/arxiv.")
        locations = [other for other in work.get("locations") or [] if isinstance(other, dict)]
        for other in locations:
            url = other.get("landing_page_url") or ""
            if "arxiv.org/abs/" in url:
                ids.setdefault("arxiv_id", url.rsplit("/abs/", 1)[-1])
        is_preprint = work.get("type") == "preprint"
        retracted = work.get("is_retracted")
        return PaperRecord(
            source=self.name,
            title=title,
            raw_title=str(work.get("title") or work.get("display_name")),
            year=work.get("publication_year")
            if isinstance(work.get("publication_year"), int)
            else None,
            authors=authors,
            doi=doi,
            ids=ids,
            abstract=clean_abstract(
                abstract_from_inverted_index(work.get("abstract_inverted_index"))
            ),
            links=links,
            venue=clean_text((location.get("source") or {}).get("display_name")),
            is_preprint=is_preprint,
            is_retracted=retracted if isinstance(retracted, bool) else None,
            version_of_record_doi=published_version_doi(locations) if is_preprint else "",
            preprint_doi="" if is_preprint else preprint_version_doi(locations),
        )


def _source_type(location: dict[str, Any]) -> str:
    source = location.get("source")
    return str(source.get("type") or "") if isinstance(source, dict) else ""


def preprint_version_doi(locations: list[dict[str, Any]]) -> str:
    """The DOI of the submitted version a repository holds (arXiv's own DOI for an arXiv
    abstract page, else a doi.org landing page's), or ""."""
    for location in locations:
        if location.get("version") != "submittedVersion":
            continue
        if _source_type(location) not in PREPRINT_SOURCE_TYPES:
            continue
        url = str(location.get("landing_page_url") or "")
        if arxiv := _ARXIV_ABS.search(url):
            return f"10.48550/arxiv.{arxiv.group(1).lower()}"
        if doi := bare_doi(url):
            return doi
    return ""


def published_version_doi(locations: list[dict[str, Any]]) -> str:
    """The DOI of the published version at a journal or conference (its doi.org landing
    page), or ""."""
    for location in locations:
        if location.get("version") != "publishedVersion":
            continue
        if _source_type(location) not in PUBLISHED_SOURCE_TYPES:
            continue
        if doi := bare_doi(str(location.get("landing_page_url") or "")):
            return doi
    return ""


def _results(data: Any) -> list:
    """A `/works` answer's `results`; read inside `shape_checked` (not a list: TypeError)."""
    results = data["results"]
    if not isinstance(results, list):
        raise TypeError("results is not a list")
    return results


def _phrase(title: str) -> str:
    """A title as a quoted-phrase search: its words only (no quotes, commas or operators)."""
    return " ".join(_WORD.findall(clean_title(title).casefold()))


def fits_filter(doi: str) -> bool:
    """Whether `doi` can go into a `filter=doi:...` as it is."""
    return not any(char in doi for char in FILTER_SEPARATORS)
