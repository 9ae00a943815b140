"""Finding a paper among a source's records when there is no DOI to go by.

A record is taken for the paper only if its normalised title is near-identical and holds the
same numbers, its year is within one of the paper's, and (when both sides know one) the first
authors agree. Preprints and "extended versions" share the title by design, so they are never
taken for the paper; nor is a sequel ("Falcon 2" for "Falcon"), which differs by one character.
"""

from __future__ import annotations

import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from functools import lru_cache
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from .text import clean_person_name, clean_title

if TYPE_CHECKING:
    from .sources.base import PaperQuery, PaperRecord

TITLE_THRESHOLD = 93.0
AUTHOR_THRESHOLD = 85.0
_VARIANT = re.compile(
    r"\b(extended (version|abstract)|full version|technical report|poster|demo)\b"
)
_NOT_WORD = re.compile(r"[\W_]+", re.UNICODE)
_NUMBER = re.compile(r"\d+")


@lru_cache(maxsize=65536)  # merging compares the same few thousand names and titles many times
def normalize_title(title: str) -> str:
    """Compare titles, not their typography: markup, entities, case, accents, punctuation."""
    text = clean_title(title)
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return _NOT_WORD.sub(" ", text.casefold()).strip()


def _family(name: str) -> str:
    parts = normalize_title(clean_person_name(name)).split()
    return parts[-1] if parts else ""


def title_numbers(title: str) -> list[str]:
    """The numbers in a title, in order: versions and sequels differ only there."""
    return [number.lstrip("0") or "0" for number in _NUMBER.findall(normalize_title(title))]


def title_score(a: str, b: str) -> float:
    return fuzz.ratio(normalize_title(a), normalize_title(b))


def is_variant_of(query: PaperQuery, record: PaperRecord) -> bool:
    """A preprint, or a version the paper's own title does not call itself."""
    if record.is_preprint:
        return True
    record_variant = _VARIANT.search(normalize_title(record.title))
    return bool(record_variant) and not _VARIANT.search(normalize_title(query.title))


def match_score(query: PaperQuery, record: PaperRecord) -> float | None:
    """How well `record` fits `query` (0-100), or None when it must not be taken for it."""
    if is_variant_of(query, record):
        return None
    if record.year is not None and abs(record.year - query.year) > 1:
        return None
    score = title_score(query.title, record.title)
    if score < TITLE_THRESHOLD or title_numbers(query.title) != title_numbers(record.title):
        return None
    if (
        query.first_author
        and record.authors
        and (
            fuzz.ratio(_family(query.first_author), _family(record.authors[0].name))
            < AUTHOR_THRESHOLD
        )
    ):
        return None
    return score


def best_match(query: PaperQuery, records: Iterable[PaperRecord]) -> PaperRecord | None:
    """The best-fitting record, preferring an exact DOI; None when nothing fits well enough."""
    candidates = list(records)
    if query.doi:
        for record in candidates:
            if record.doi and record.doi == query.doi and not record.is_preprint:
                return record
    scored = [(match_score(query, record), record) for record in candidates]
    scored = [(score, record) for score, record in scored if score is not None]
    if not scored:
        return None
    return max(scored, key=lambda pair: pair[0])[1]


class RecordIndex:
    """A listing's records (a table of contents, a venue's year) looked up for many papers.

    Scoring every record against every paper costs a fuzzy comparison per pair, hundreds of
    thousands for a proceedings; identifiers and exact titles find almost every paper at once.
    `find` answers what `best_match` would, with one addition: a record carrying the paper's
    DBLP key is the paper (Semantic Scholar lists DBLP keys among its ids).
    """

    def __init__(self, records: Iterable[PaperRecord]):
        self.records = list(records)
        self._by_key: dict[str, PaperRecord] = {}
        self._by_doi: dict[str, PaperRecord] = {}
        self._by_title: dict[str, list[PaperRecord]] = defaultdict(list)
        for record in self.records:
            key = record.ids.get("dblp_key")
            if key:
                self._by_key.setdefault(key, record)
            if record.doi and not record.is_preprint:
                self._by_doi.setdefault(record.doi, record)
            self._by_title[normalize_title(record.title)].append(record)

    def find(self, query: PaperQuery) -> PaperRecord | None:
        key = query.ids.get("dblp_key")
        if key and key in self._by_key:
            return self._by_key[key]
        if query.doi and query.doi in self._by_doi:
            return self._by_doi[query.doi]
        for record in self._by_title.get(normalize_title(query.title), []):
            if match_score(query, record) is not None:
                return record  # a score of 100: nothing fuzzy can beat it
        return best_match(query, self.records)
