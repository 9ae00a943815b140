"""The terminology check: each glossary term in the English must appear as its Chinese term.

Published pages are checked page against page (the English live page's translatable text
against its translation's); a translation about to be published is checked segment by segment
from the translator's strings. Both report the same two kinds of violation.
"""

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.conf import settings
from django.utils.translation import gettext
from wagtail.models import Locale, Page
from wagtail_localize.models import StringSegment, StringTranslation, Translation
from wagtail_localize.segments import StringSegmentValue
from wagtail_localize.segments.extract import extract_segments

from .glossary import Term, contains_chinese, load_terms, plain_text, terms_in

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


def violations_in(english: str, chinese: str, terms: list[Term]) -> Iterator[tuple[str, Term, str]]:
    """(kind, term, found) for one English text and its translation."""
    for term in terms_in(english, terms):
        if not contains_chinese(chinese, term.chinese):
            yield MISSING, term, ""
    used = plain_text(chinese)
    reported = set()
    for term in terms:
        for variant in term.forbidden:
            if variant in used and variant not in reported and term.chinese not in variant:
                reported.add(variant)
                yield FORBIDDEN, term, variant


def page_text(page: Page) -> str:
    """The translatable text of a page, as wagtail-localize extracts it for translators."""
    strings = [
        segment.string.data
        for segment in extract_segments(page.specific)
        if isinstance(segment, StringSegmentValue)
    ]
    return "\n".join(plain_text(text) for text in strings)


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
    return [
        Violation(page.pk, page.title, kind, term, found)
        for kind, term, found in violations_in(page_text(source), page_text(page), terms)
    ]


def translated_pages(language_code: str = TARGET_LANGUAGE) -> Iterable[Page]:
    locale = Locale.objects.filter(language_code=language_code).first()
    if locale is None:
        return []
    return Page.objects.live().filter(locale=locale).order_by("path")


def check_site(language_code: str = TARGET_LANGUAGE) -> list[Violation]:
    """Every violation on the live pages of the language."""
    terms = load_terms()
    found: list[Violation] = []
    for page in translated_pages(language_code):
        found.extend(check_page(page, terms))
    return found


def check_translation(translation: Translation, page: Page) -> list[Violation]:
    """Violations in the translator's strings of `translation`, segment by segment."""
    terms = load_terms()
    strings = {
        (item.translation_of_id, item.context_id): item.data
        for item in StringTranslation.objects.filter(
            locale_id=translation.target_locale_id,
            context__object_id=translation.source.object_id,
        )
    }
    found: dict[tuple[str, str, str], Violation] = {}
    segments = StringSegment.objects.filter(source=translation.source).select_related("string")
    for segment in segments:
        chinese = strings.get((segment.string_id, segment.context_id))
        if chinese is None:
            continue  # not translated yet: nothing to check
        for kind, term, variant in violations_in(segment.string.data, chinese, terms):
            key = (kind, term.english, variant)
            found.setdefault(key, Violation(page.pk, page.title, kind, term, variant))
    return list(found.values())
