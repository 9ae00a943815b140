"""What an editor has in hand - a DOI, a DBLP, arXiv, USENIX, OpenAlex or Semantic Scholar link
or id, or a title - recognised and normalised to one identifier.

Hand-rolled: the identifier libraries on PyPI each know one scheme (DOIs, arXiv ids) and none
knows DBLP keys or USENIX presentation pages; these are a few patterns each.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.translation import gettext as _

from cms.papers.models import Venue

from .conf import sync_setting

DOI = "doi"
DBLP = "dblp_key"
ARXIV = "arxiv_id"
USENIX = "usenix"
OPENALEX = "openalex_id"
SEMANTIC_SCHOLAR = "semantic_scholar_id"
TITLE = "title"

_DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?(10\.\d{4,9}/\S+)$", re.I)
_ARXIV_DOI = re.compile(r"^10\.48550/arxiv\.(.+)$", re.I)
_DBLP = re.compile(
    r"^(?:https?://dblp(?:\.uni-trier\.de|\.org|\.dagstuhl\.de)/rec/(?:bibtex/|html/)?|dblp:)?"
    r"((?:conf|journals)/[\w.-]+/[\w.-]+?)(?:\.html|\.bib|\.xml|\.ris)?/?$",
    re.I,
)
_ARXIV = re.compile(
    r"^(?:arxiv:\s*|https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf)/)?"
    r"(\d{4}\.\d{4,5}|[a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?(?:\.pdf)?/?$",
    re.I,
)
_USENIX = re.compile(
    r"^https?://(?:www\.)?usenix\.org/conference/([a-z]+)(\d{2})/presentation/([\w-]+)/?$", re.I
)
_OPENALEX = re.compile(r"^(?:https?://(?:api\.)?openalex\.org/(?:works/)?)?(w\d{4,})$", re.I)
_SEMANTIC_SCHOLAR = re.compile(
    r"^(?:https?://(?:www\.|api\.)?semanticscholar\.org/(?:paper/(?:[^/]+/)?|"
    r"graph/v1/paper/))?([0-9a-f]{40})/?$",
    re.I,
)
_URL = re.compile(r"^\w+://", re.I)
# From the start of a run of separators only: searched from each of its characters, a long
# run would take time quadratic in its length.
_YEAR = re.compile(r"(?<![\s,(])[\s,(]+((?:19|20)\d{2})\)?$")
# Longer than any title the site keeps (500 characters) with its venue and year, or any DOI.
MAX_CHARS = 600
_WORD = re.compile(r"[^\W\d_]{2,}")


class UnrecognisedIdentifier(ValueError):
    """Input that is none of the identifiers, nor a title."""


@dataclass(frozen=True)
class Identifier:
    kind: str
    value: str  # normalised: bare lower-case DOI, DBLP key, arXiv id without version, ...
    year: int | None = None  # a title's year, or the USENIX conference's
    venue: str = ""  # a site venue (cms.papers.models.Venue), when the input names one
    text: str = ""  # what was typed

    def __str__(self) -> str:
        return self.value


def recognise(text: str) -> Identifier:
    """The identifier `text` holds, normalised; UnrecognisedIdentifier names what it is not."""
    raw = " ".join((text or "").split())
    if not raw:
        raise UnrecognisedIdentifier(
            _(
                "Enter a DOI, a DBLP, arXiv, USENIX, OpenAlex or Semantic Scholar link or id, "
                "or a title."
            )
        )
    if len(raw) > MAX_CHARS:
        raise UnrecognisedIdentifier(
            _("That is too long for an identifier or a title (at most %(max)s characters).")
            % {"max": MAX_CHARS}
        )
    if match := _DOI.match(raw):
        doi = match.group(1).rstrip(".").lower()
        if arxiv := _ARXIV_DOI.match(doi):
            return Identifier(ARXIV, arxiv.group(1), text=raw)
        return Identifier(DOI, doi, text=raw)
    if match := _ARXIV.match(raw):
        return Identifier(ARXIV, match.group(1).lower(), text=raw)
    if match := _DBLP.match(raw):
        return Identifier(DBLP, match.group(1), text=raw)
    if match := _USENIX.match(raw):
        conference, year = match.group(1).lower(), 2000 + int(match.group(2))
        venue = venue_for(conference)
        url = f"https://www.usenix.org/conference/{conference}{match.group(2)}/presentation/{match.group(3).lower()}"
        return Identifier(USENIX, url, year=year, venue=venue, text=raw)
    if match := _OPENALEX.match(raw):
        return Identifier(OPENALEX, match.group(1).upper(), text=raw)
    if match := _SEMANTIC_SCHOLAR.match(raw):
        return Identifier(SEMANTIC_SCHOLAR, match.group(1).lower(), text=raw)
    if _URL.match(raw):
        raise UnrecognisedIdentifier(
            _(
                "“%(text)s” is not a link this site can look up: give a doi.org, dblp.org, "
                "arxiv.org, usenix.org presentation, openalex.org or semanticscholar.org link."
            )
            % {"text": raw}
        )
    return _title(raw)


def _title(raw: str) -> Identifier:
    title, year, venue = raw, None, ""
    for _round in range(2):  # "Title NSDI 2024", "Title (2024)", "Title, SIGCOMM"
        if match := _YEAR.search(title):
            year, title = int(match.group(1)), title[: match.start()]
        last = title.rsplit(None, 1)
        if len(last) == 2 and (found := venue_for(last[1].strip(",()"))):
            venue, title = found, last[0]
    title = title.strip(" ,;")
    if len(_WORD.findall(title)) < 3:
        raise UnrecognisedIdentifier(
            _(
                "“%(text)s” is not a DOI, a DBLP key or link, an arXiv id or link, a USENIX "
                "presentation link, an OpenAlex or Semantic Scholar id or link, nor a title "
                "(a title needs at least three words)."
            )
            % {"text": raw}
        )
    return Identifier(TITLE, title, year=year, venue=venue, text=raw)


def venue_for(text: str) -> str:
    """The site venue a venue string names ("NSDI", "nsdi", "Proceedings of the ACM SIGCOMM
    2024 Conference", "Symposium on Networked Systems Design and Implementation"), or ""."""
    folded = (text or "").casefold()
    if not folded:
        return ""
    names = {
        value: [value, str(label).split("/")[-1].removeprefix("ACM ").removeprefix("IEEE ")]
        for value, label in Venue.choices
    }
    for value, s2_name in sync_setting("SYNC_SEMANTIC_SCHOLAR_VENUES").items():
        names.setdefault(value, []).append(s2_name)
    for value, variants in names.items():
        if re.search(rf"\b{re.escape(value.casefold())}\b", folded):
            return value
        for variant in variants[1:]:
            variant = variant.removeprefix("IEEE ").removeprefix("USENIX ").casefold()
            if variant and variant in folded:
                return value
    return ""


def venue_of_dblp_key(key: str) -> tuple[str, int | None]:
    """(site venue, year) of a DBLP key in a proceedings the site follows ("conf/nsdi/X24")."""
    for venue, stream in sync_setting("SYNC_DBLP_STREAMS").items():
        prefix = stream.split("{", 1)[0].rsplit("/", 1)[0] + "/"
        if key.startswith(prefix):
            digits = re.search(r"(\d{2})[a-z]?$", key)
            return venue, (2000 + int(digits.group(1))) if digits else None
    return "", None
