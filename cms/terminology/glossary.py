"""Finding glossary terms in English text, and the terminology a translation owes them.

A term matches as a whole word or phrase, with an optional plural `s`/`es`; a hyphen counts as
part of a word, so "tenant" is not found inside "multi-tenant" (that is its own term). Longer
terms win: where "congestion control" matches, "congestion" inside it is not reported again.
"""

import re
from dataclasses import dataclass
from functools import lru_cache

from django.utils.html import strip_tags

from .models import GlossaryTerm


@dataclass(frozen=True)
class Term:
    english: str
    chinese: str
    note: str
    case_sensitive: bool
    forbidden: tuple[str, ...]

    @classmethod
    def of(cls, term: GlossaryTerm) -> "Term":
        return cls(
            term.english, term.chinese, term.note, term.case_sensitive, tuple(term.forbidden)
        )


@lru_cache(maxsize=16)
def terms_pattern(englishes: tuple[str, ...], case_sensitive: bool) -> re.Pattern:
    """All the terms in one alternation, longest first, so one scan finds them all."""
    flags = 0 if case_sensitive else re.IGNORECASE
    ordered = sorted(englishes, key=lambda english: (-len(english), english))
    alternatives = "|".join(re.escape(english) for english in ordered)
    return re.compile(r"(?<![\w-])(?P<term>" + alternatives + r")(?:s|es)?(?![\w-])", flags)


def load_terms() -> list[Term]:
    """Every glossary term, longest first (so phrases are matched before their words)."""
    terms = [Term.of(term) for term in GlossaryTerm.objects.all()]
    return sorted(terms, key=lambda term: (-len(term.english), term.english.lower()))


@lru_cache(maxsize=16)
def variants_pattern(variants: tuple[str, ...]) -> re.Pattern:
    """Every forbidden variant in one alternation, longest first."""
    ordered = sorted(set(variants), key=lambda variant: (-len(variant), variant))
    return re.compile("|".join(re.escape(variant) for variant in ordered))


def plain_text(html_or_text: str) -> str:
    """Segment text without its inline markup (rich text segments keep links and bold)."""
    return strip_tags(html_or_text) if "<" in html_or_text else html_or_text


def find_terms(text: str, terms: list[Term]) -> list[tuple[Term, int, int]]:
    """(term, start, end) of each term found in the English `text`, without overlaps."""
    candidates = []
    for case_sensitive in (False, True):
        lookup = {
            (term.english if case_sensitive else term.english.lower()): term
            for term in terms
            if term.case_sensitive == case_sensitive
        }
        if not lookup:
            continue
        pattern = terms_pattern(tuple(term.english for term in lookup.values()), case_sensitive)
        for match in pattern.finditer(text):
            key = match.group("term") if case_sensitive else match.group("term").lower()
            candidates.append((lookup[key], match.start(), match.end()))
    # Longer matches win where a case-sensitive and a case-insensitive term overlap.
    candidates.sort(key=lambda item: (-(item[2] - item[1]), item[1]))
    found: list[tuple[Term, int, int]] = []
    for term, start, end in candidates:
        if not any(start < f_end and f_start < end for _term, f_start, f_end in found):
            found.append((term, start, end))
    return sorted(found, key=lambda item: item[1])


def terms_in(text: str, terms: list[Term]) -> list[Term]:
    """The distinct terms found in `text`, in order of first appearance."""
    seen: dict[str, Term] = {}
    for term, _start, _end in find_terms(plain_text(text), terms):
        seen.setdefault(term.english, term)
    return list(seen.values())
