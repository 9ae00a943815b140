"""The terminology check: each glossary term in the English must appear as its Chinese term.

Checked segment by segment: a published page's English against its live translation (as
wagtail-localize extracts each), and a translation about to be published from the translator's
strings. Both report the same two kinds of violation.

In a Traditional Chinese translation the zh-Hant guard already refuses Simplified-only
characters, on the segment, with their Taiwan form; a forbidden variant it reports with the
glossary's own term (网络: write 網路) is left to it, and so is a term missing only until
the guard's replacement is made, so the translator is told once.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace

from django.conf import settings
from django.utils.translation import gettext
from wagtail.models import Page
from wagtail_localize.models import StringSegment, Translation
from wagtail_localize.segments import StringSegmentValue
from wagtail_localize.segments.extract import extract_segments

from cms.translation.guard.zh_hant import (
    find_simplified,
    is_traditional_chinese,
    replacements,
    to_taiwan,
)

from .glossary import Term, load_terms, plain_text, terms_in, variants_pattern
from .memory import translated_strings
from .models import MemoryEntry

MISSING = "missing"
FORBIDDEN = "forbidden"
TARGET_LANGUAGE = "zh-hant"


@dataclass(frozen=True)
class Violation:
    page_id: int
    page_title: str
    kind: str  # MISSING or FORBIDDEN
    term: Term
    found: str = ""  # the forbidden variant used

    def describe(self) -> str:
        if self.kind == FORBIDDEN:
            return gettext(
                "“%(found)s” is a forbidden variant; use “%(chinese)s” (%(english)s)"
            ) % {
                "found": self.found,
                "chinese": self.term.chinese,
                "english": self.term.english,
            }
        return gettext("“%(english)s” should be translated as “%(chinese)s”") % {
            "english": self.term.english,
            "chinese": self.term.chinese,
        }


def as_guard_suggests(chinese: str) -> str:
    """`chinese` with the zh-Hant guard's replacements made (网络 -> 網路)."""
    for run, taiwan in replacements(chinese) if find_simplified(chinese) else ():
        chinese = chinese.replace(run, taiwan)
    return chinese


def violations_in(
    english: str, chinese: str, terms: list[Term], guarded: bool = False
) -> Iterator[tuple[str, Term, str]]:
    """(kind, term, found) for one English text and its translation. `guarded`: the zh-Hant
    guard reads the translation, so a term its suggestion supplies is not reported missing."""
    suggested = as_guard_suggests(chinese) if guarded else chinese
    for term in terms_in(english, terms):
        if term.chinese.lower() not in suggested.lower():
            yield MISSING, term, ""
    yield from forbidden_in(chinese, terms)


def said_by_guard(variant: str, term: Term) -> bool:
    """Whether the zh-Hant guard already refuses `variant` and suggests `term`'s Chinese for it
    (网络 -> 網路). Where its Taiwan form is not the term (拥塞控制 -> 擁塞控制, not 壅塞控制) the
    glossary still says what to write."""
    return bool(find_simplified(variant)) and to_taiwan(variant) == term.chinese


def unsaid_terms(terms: list[Term]) -> list[Term]:
    """`terms` without the forbidden variants the zh-Hant guard reports with their term."""
    return [
        replace(term, forbidden=tuple(v for v in term.forbidden if not said_by_guard(v, term)))
        for term in terms
    ]


def collect(
    rows: Iterable[tuple[int, str, str, str]],
    terms: list[Term],
    language_code: str = TARGET_LANGUAGE,
) -> list[Violation]:
    """Each violation once per page, from (page id, page title, English, translation) rows
    of a translation into `language_code`."""
    guarded = is_traditional_chinese(language_code)
    if guarded:
        terms = unsaid_terms(terms)
    found: dict[tuple[int, str, str, str], Violation] = {}
    for page_id, title, english, chinese in rows:
        for kind, term, variant in violations_in(english, chinese, terms, guarded):
            key = (page_id, kind, term.english, variant)
            found.setdefault(key, Violation(page_id, title, kind, term, variant))
    return list(found.values())


def forbidden_in(chinese: str, terms: list[Term]) -> Iterator[tuple[str, Term, str]]:
    """Forbidden variants used in `chinese`, each once; one inside a longer one is not repeated."""
    owners = {variant: term for term in terms for variant in term.forbidden}
    if not owners:
        return
    reported: set[str] = set()
    for match in variants_pattern(tuple(owners)).finditer(plain_text(chinese)):
        variant = match.group()
        if variant not in reported and owners[variant].chinese not in variant:
            reported.add(variant)
            yield FORBIDDEN, owners[variant], variant


def segments_by_path(page: Page) -> dict[str, list[str]]:
    """The page's translatable strings, as wagtail-localize extracts them, by field path."""
    found: dict[str, list[str]] = {}
    for segment in extract_segments(page.specific):
        if isinstance(segment, StringSegmentValue):
            found.setdefault(segment.path, []).append(plain_text(segment.string.data))
    return found


def paired_text(source: Page, translated: Page) -> list[tuple[str, str]]:
    """(English, translation) per segment: same field path, same position within it.

    A translation keeps its source's field paths (block ids included); where a field has a
    different number of segments, its texts are compared as a whole.
    """
    english, chinese = segments_by_path(source), segments_by_path(translated)
    pairs = []
    for path, texts in english.items():
        theirs = chinese.get(path, [])
        if len(theirs) == len(texts):
            pairs.extend(zip(texts, theirs, strict=True))
        else:
            pairs.append(("\n".join(texts), "\n".join(theirs)))
    return pairs


def check_page(page: Page, terms: list[Term] | None = None) -> list[Violation]:
    """Violations of a live translated page against its live English page."""
    terms = load_terms() if terms is None else terms
    source = (
        Page.objects.live()
        .filter(translation_key=page.translation_key, locale__language_code=settings.LANGUAGE_CODE)
        .first()
    )
    if source is None:
        return []
    pairs = paired_text(source, page)
    rows = ((page.pk, page.title, english, chinese) for english, chinese in pairs)
    return collect(rows, terms, page.locale.language_code)


def check_site(language_code: str = TARGET_LANGUAGE) -> list[Violation]:
    """Every violation on the live pages of the language."""
    terms = load_terms()
    pages = Page.objects.live().filter(locale__language_code=language_code).order_by("path")
    return [violation for page in pages for violation in check_page(page, terms)]


def check_memory(language_code: str = TARGET_LANGUAGE) -> list[Violation]:
    """The same check over the translation memory: the published segments, without extracting
    every page again, so the report stays quick on a large site. `check_site` (the command)
    reads the live pages themselves."""
    entries = (
        MemoryEntry.objects.filter(locale__language_code=language_code, page__live=True)
        .order_by("page__path", "context")
        .values_list("page_id", "page__title", "source_text", "target_text")
    )
    return collect(entries.iterator(chunk_size=5000), load_terms(), language_code)


def check_translation(translation: Translation, page: Page) -> list[Violation]:
    """Violations in the translator's strings of `translation`, segment by segment."""
    strings = translated_strings(translation)
    segments = StringSegment.objects.filter(source=translation.source).select_related("string")
    rows = (
        (page.pk, page.title, segment.string.data, strings[segment.string_id, segment.context_id])
        for segment in segments
        if (segment.string_id, segment.context_id) in strings  # untranslated: nothing to check
    )
    return collect(rows, load_terms(), translation.target_locale.language_code)
