"""Plain text from what sources send: HTML/JATS/MathML markup, entities, bits of LaTeX."""

from __future__ import annotations

import html
import re
import unicodedata
from functools import lru_cache

from django.utils.html import strip_tags
from nameparser import HumanName

from cms.papers.doi import bare_doi as bare_doi  # the data model's rule, used by the sources

_DANGEROUS = re.compile(r"<\s*(script|style|iframe|object|embed)\b|javascript:", re.IGNORECASE)
_DANGEROUS_BLOCKS = re.compile(
    r"<\s*(script|style)\b[^>]*>.*?<\s*/\s*\1\s*>", re.IGNORECASE | re.DOTALL
)
# LaTeX in titles is rare and simple ("$\mu$s", "\emph{x}", "{GPU}s"); a full LaTeX parser would
# also eat "%" and "&" that are plain text here, so only these forms are undone.
_LATEX_COMMAND = re.compile(
    r"\\(?:emph|textit|textbf|texttt|textsc|mathrm|mathit|text)\{([^{}]*)\}"
)
_LATEX_ESCAPES = {r"\&": "&", r"\%": "%", r"\_": "_", r"\#": "#", r"\$": "$", "~": " "}
_BLOCK_TAG = re.compile(r"<\s*/?\s*(?:jats:)?(?:p|div|br|li|sec|title|h\d)\b[^>]*>", re.IGNORECASE)
_JATS_HEADING = re.compile(r"<\s*jats:title\b[^>]*>.*?<\s*/\s*jats:title\s*>", re.I | re.DOTALL)
_GREEK = re.compile(r"\\([a-zA-Z]+)")
_HOMONYM_SUFFIX = re.compile(r"\s+\d{4}$")
_PAREN_ID = re.compile(r"\s*\(\d+\)\s*$")
# Words that name an organisation, never a person (in the languages of the sources' records).
_INSTITUTION = re.compile(
    r"\b(universit\w*|institut\w*|laborato\w*|lab|labs|department|d[ée]partement|school|"
    r"college|coll[eè]ge|academy|acad[ée]mie|hospital|centre|center|inc|ltd|gmbh|corporation|"
    r"consortium|ministry|cnrs|inria)\b",
    re.IGNORECASE,
)
# "Abstract" as the first word of an abstract is a heading when punctuation or a sentence
# follows it ("Abstract We present..."); "Abstract interpretation is..." keeps it.
_PLAIN_HEADING = re.compile(r"^(?i:abstract)(?:\s*[:.\u2014\u2013-]\s*|\s+(?=[A-Z0-9]))")
_SPACE = re.compile(r"\s+")


def _greek_letter(match: re.Match) -> str:
    """\\mu -> μ, \\Delta -> Δ; any other command keeps its name."""
    name = match.group(1)
    case = "CAPITAL" if name[0].isupper() else "SMALL"
    try:
        return unicodedata.lookup(f"GREEK {case} LETTER {name.upper()}")
    except KeyError:
        return name


def has_dangerous_markup(value: str) -> bool:
    """Script-like markup in metadata means the record is broken or hostile: reject it."""
    return bool(_DANGEROUS.search(html.unescape(value or "")))


def clean_text(value: str | None) -> str:
    """Plain text: no tags, entities decoded (even when double-encoded), spaces collapsed."""
    if not value:
        return ""
    text = str(value)
    for _ in range(2):  # sources sometimes encode twice ("&amp;amp;")
        text = _DANGEROUS_BLOCKS.sub(" ", text)
        text = _BLOCK_TAG.sub(" ", text)
        text = strip_tags(text)
        text = html.unescape(text)
    if "\\" in text or "$" in text:
        text = _LATEX_COMMAND.sub(r"\1", text)
        for escaped, plain in _LATEX_ESCAPES.items():
            text = text.replace(escaped, plain)
        text = _GREEK.sub(_greek_letter, text)
        text = re.sub(r"\$([^$]*)\$", r"\1", text)
    if "{" in text:
        text = re.sub(r"\{([^{}]*)\}", r"\1", text)
    text = unicodedata.normalize("NFC", text)
    return _SPACE.sub(" ", text).strip()


def clean_abstract(value: str | None) -> str:
    """An abstract as plain text, without its "Abstract" heading: Crossref's JATS sends it as a
    `<jats:title>`, OpenAlex's inverted index as the abstract's first word."""
    return _PLAIN_HEADING.sub("", clean_text(_JATS_HEADING.sub(" ", value or "")))


def clean_title(value: str | None) -> str:
    """A title as printed, its punctuation kept (a title may end with a period: "Lindb.")."""
    return clean_text(value)


def dblp_title(value: str | None) -> str:
    """A DBLP title as printed: DBLP ends every title with a period of its own, dropped here
    (a title that ends with one of its own shows two, and keeps one)."""
    text = clean_text(value)
    if text.endswith(".") and not text.endswith(".."):
        text = text[:-1].rstrip()
    elif text.endswith(".."):
        text = text[:-1]
    return text


def clean_person_name(value: str | None) -> str:
    """A person's display name, or "" when the string is not one.

    Drops DBLP's homonym number ("Wei Wang 0001" -> "Wei Wang") and an id in parentheses
    ("Mihai G Netea (15649)"); refuses affiliation strings sent as authors (",LAGEP, Université
    de Lyon, ...") and institutions listed as authors. Hand-rolled: name-parsing libraries
    (nameparser) split names into parts but do not tell a person from an institution.
    """
    text = _PAREN_ID.sub("", _HOMONYM_SUFFIX.sub("", clean_text(value))).strip()
    if not text or not text[0].isalpha() or text.count(",") > 1 or len(text) > 120:
        return ""
    if _INSTITUTION.search(text):
        return ""
    return text


# A batch reads each author's name from three sources and the listings again, and nameparser
# is the sync's costliest step per record; a few thousand recent names cover a batch's repeats.
@lru_cache(maxsize=4096)
def person_name_parts(name: str) -> tuple[str, str]:
    """(given, family) of a person's whole name, for sources that send only that (DBLP,
    OpenAlex, Semantic Scholar): "Sofia Okafor" -> ("Sofia", "Okafor"), "Ludwig van der Berg"
    -> ("Ludwig", "van der Berg"). nameparser splits it (particles, suffixes, "Family, Given");
    a mononym or a CJK name in one piece is all family. Give it a cleaned person's name
    (clean_person_name): it cannot tell a person from an organisation, whose name stays whole.
    """
    parsed = HumanName(name)
    given = " ".join(part for part in (parsed.first, parsed.middle) if part)
    family = " ".join(part for part in (parsed.last, parsed.suffix) if part)
    if not family:  # "Plato": nameparser calls a lone word a first name
        given, family = "", given
    return given, family


def bare_orcid(value: str | None) -> str:
    """ "https://orcid.org/0000-0002-1825-0097" -> "0000-0002-1825-0097"; junk -> ""."""
    match = re.search(r"(\d{4}-\d{4}-\d{4}-\d{3}[\dX])", value or "")
    return match.group(1) if match else ""
