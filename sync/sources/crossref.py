"""Crossref: publisher-deposited metadata - ORCIDs, affiliations, JATS abstracts.

API: https://api.crossref.org/swagger-ui/index.html (`/works`, `filter=doi:A,doi:B` - repeated
filters of one name are ORed - and `query.bibliographic`), polite pool via `mailto`. Quirks
handled: `title` is a list; dates are `date-parts` that may be `[[null]]`; abstracts are JATS XML;
ORCIDs are URLs; preprints are type `posted-content`.

Update notices come in the same answers: `updated-by` lists the notices that update a work
(publishers' Crossmark notices and, since 2025, Retraction Watch's: each with the notice's DOI,
`type`, `label`, `source`, `updated.date-parts` and for Retraction Watch a `record-id`), so
reading them costs no request. `relation` relates a preprint to its published version
(`is-preprint-of` / `has-preprint`, items `{"id-type": "doi", "id": ...}`).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date
from functools import partial
from typing import Any
from urllib.parse import quote

from ..conf import sync_setting
from ..identifiers import DOI, TITLE, Identifier
from ..text import (
    bare_doi,
    bare_orcid,
    clean_abstract,
    clean_person_name,
    clean_text,
    clean_title,
)
from .base import (
    AuthorRecord,
    FetchResult,
    NoticeRecord,
    PaperQuery,
    PaperRecord,
    Source,
    chunks,
)

WORKS_PATH = "/works"
# DOIs per filter request: Crossref asks for "between 5 and 20 queries" per batched lookup, and
# its request line is capped at 4 KB (about 100 DOIs); answers come in one page (`rows`).
DOI_BATCH = 20
# Crossref splits `filter` at commas and documents no escape: a DOI holding one is asked for
# alone, at the work's own address (`/works/{doi}`, "/" left as it is, as Crossref asks).
FILTER_SEPARATORS = ","
SELECT = (
    "DOI,title,author,abstract,issued,published,type,subtype,URL,container-title,"
    "updated-by,relation"
)
# A notice without `source` is a publisher's: answers from before Retraction Watch's records
# were added carry none.
DEFAULT_NOTICE_SOURCE = "publisher"


class CrossrefSource(Source):
    label = "Crossref"

    def fetch_each(self, queries: list[PaperQuery]) -> Iterator[tuple[list[int], FetchResult]]:
        with_doi = [q for q in queries if q.doi]
        skip_venues = set(sync_setting("SYNC_VENUES_WITHOUT_DOIS"))
        # A title search costs a request per paper: only for papers DBLP has placed in
        # proceedings that register DOIs, yet without a DOI.
        by_title = [
            q for q in queries if not q.doi and q.venue not in skip_venues and q.ids.get("dblp_key")
        ]
        searched = {q.paper_id for q in by_title}
        # Papers it will not ask about are done now, not after its last title search (which,
        # at its rate, ends a batch): the batch writes them meanwhile instead of at its end.
        unasked = [q.paper_id for q in queries if not q.doi and q.paper_id not in searched]
        if unasked:
            yield unasked, FetchResult()
        for query in [q for q in with_doi if not fits_filter(q.doi)]:
            work = partial(self._work, query.doi)
            yield [query.paper_id], self.found_in([query], work, indexed=False)
        for batch in chunks([q for q in with_doi if fits_filter(q.doi)], DOI_BATCH):
            filters = ",".join(f"doi:{q.doi}" for q in batch)
            params = self.polite_params(filter=filters, rows=len(batch), select=SELECT)
            works = partial(self._works, params)
            yield [q.paper_id for q in batch], self.found_in(batch, works, indexed=False)
        for query in by_title:
            params = self.polite_params(
                **{
                    "query.bibliographic": query.title,
                    "filter": f"from-pub-date:{query.year - 1},until-pub-date:{query.year + 1}",
                    "rows": 5,
                    "select": SELECT,
                }
            )
            works = partial(self._works, params)
            yield [query.paper_id], self.found_in([query], works, indexed=False)

    def _works(self, params: dict) -> list[PaperRecord]:
        with self.shape_checked():
            data = self.get_json(WORKS_PATH, params=params)
            items = data["message"]["items"]
            if not isinstance(items, list):
                raise TypeError("items is not a list")
        return self.parse_all(items, self.parse_work)

    def _work(self, doi: str) -> list[PaperRecord]:
        data = self.get_json(f"{WORKS_PATH}/{quote(doi, safe='/')}", missing_ok=True)
        if data is None:  # 404: Crossref has no such DOI
            return []
        with self.shape_checked():
            work = data["message"]
            if not isinstance(work, dict):
                raise TypeError("message is not an object")
        return self.parse_all([work], self.parse_work)

    def resolve(self, identifier: Identifier) -> list[PaperRecord]:
        if identifier.kind == DOI and not fits_filter(identifier.value):
            return self._work(identifier.value)
        if identifier.kind == DOI:
            params = self.polite_params(filter=f"doi:{identifier.value}", rows=1, select=SELECT)
        elif identifier.kind == TITLE:
            params = self.polite_params(
                **{"query.bibliographic": identifier.value, "rows": 10, "select": SELECT}
            )
            if identifier.year:
                years = f"from-pub-date:{identifier.year - 1},until-pub-date:{identifier.year + 1}"
                params["filter"] = years
        else:
            return []
        return self._works(params)  # read as a sync reads it: another shape is an error

    def parse_work(self, work: dict[str, Any]) -> PaperRecord | None:
        if not isinstance(work, dict):
            return None
        titles = work.get("title") or []
        title = clean_title(titles[0] if isinstance(titles, list) and titles else titles)
        if not title:
            return None
        authors = []
        for author in work.get("author") or []:
            given = clean_text(author.get("given"))
            family = clean_text(author.get("family"))
            suffix = clean_text(author.get("suffix"))  # "III", "Jr."
            name = clean_person_name(
                " ".join(p for p in (given, family, suffix) if p) or author.get("name")
            )
            if not name:  # only a `sequence`, or an institution in `name`
                continue
            affiliations = tuple(
                clean_text(aff.get("name"))
                for aff in author.get("affiliation") or []
                if isinstance(aff, dict) and aff.get("name")
            )
            authors.append(
                AuthorRecord(
                    name=name,
                    given=given,
                    family=family,
                    orcid=bare_orcid(author.get("ORCID")),
                    affiliations=affiliations,
                )
            )
        doi = bare_doi(work.get("DOI"))
        relation = work.get("relation") if isinstance(work.get("relation"), dict) else {}
        return PaperRecord(
            source=self.name,
            title=title,
            raw_title=str(titles[0] if isinstance(titles, list) and titles else titles),
            year=self._year(work),
            authors=authors,
            doi=doi,
            abstract=clean_abstract(work.get("abstract")),
            links=[("DOI", f"https://doi.org/{doi}")] if doi else [],
            venue=clean_text(" ".join(work.get("container-title") or [])),
            is_preprint=work.get("type") == "posted-content" or work.get("subtype") == "preprint",
            # Asked for in every answer: a work without `updated-by` has no notices.
            notices=notices_of(work.get("updated-by")),
            version_of_record_doi=related_doi(relation, "is-preprint-of"),
            preprint_doi=related_doi(relation, "has-preprint"),
        )

    @staticmethod
    def _year(work: dict[str, Any]) -> int | None:
        for key in ("issued", "published", "published-print", "published-online"):
            parts = (work.get(key) or {}).get("date-parts") or [[None]]
            first = parts[0] if parts and isinstance(parts[0], list) else [None]
            if first and isinstance(first[0], int):
                return first[0]
        return None


def fits_filter(doi: str) -> bool:
    """Whether `doi` can go into a `filter=doi:...` as it is."""
    return not any(char in doi for char in FILTER_SEPARATORS)


def notices_of(entries: Any) -> list[NoticeRecord]:
    """A work's `updated-by` as notices, one per (DOI, type, source); entries without a
    `type` are skipped, and a date that cannot be read is None."""
    notices: dict[tuple[str, str, str], NoticeRecord] = {}
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        kind = notice_type(entry.get("type"))
        if not kind:
            continue
        source = clean_text(entry.get("source")).lower() or DEFAULT_NOTICE_SOURCE
        doi = bare_doi(entry.get("DOI"))
        label = clean_text(entry.get("label")) or kind.replace("_", " ").capitalize()
        notices.setdefault(
            (doi, kind, source),
            NoticeRecord(
                doi=doi,
                type=kind,
                label=label[:100],
                source=source[:40],
                record_id=str(entry.get("record-id") or "")[:40],
                date=notice_date(entry.get("updated")),
            ),
        )
    return list(notices.values())


def notice_type(value: Any) -> str:
    """Crossref's update type as stored: lower case, `_` for `-` ("Expression-of-concern")."""
    return clean_text(value).lower().replace("-", "_").replace(" ", "_")[:40] if value else ""


def notice_date(updated: Any) -> date | None:
    """`updated.date-parts` as a date when it names a whole, real day; else None."""
    try:
        year, month, day = updated["date-parts"][0][:3]
        return date(year, month, day)
    except (TypeError, KeyError, IndexError, ValueError):
        return None


def related_doi(relation: dict[str, Any], kind: str) -> str:
    """The first DOI a work's `relation` lists under `kind`, bare; "" for none."""
    items = relation.get(kind)
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and item.get("id-type") == "doi":
            doi = bare_doi(str(item.get("id") or ""))
            if doi:
                return doi
    return ""
