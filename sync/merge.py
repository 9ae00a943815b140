"""Deciding what a sync changes: precedence per field, locks, and provenance. Pure functions.

`plan_changes` compares the paper as it is with what each source returned and lists the fields
to change. The highest-precedence source that has a value wins; if a source ranked above it
failed for this paper, the field is left alone rather than flip to a lower-ranked value.
Locked fields are never planned. Nothing new means an empty plan, and then nothing is written.

Update notices (retractions, corrections...) are planned apart, by `plan_notices`: they are a
set, not a value, and a source that answered for the paper says which of them still hold.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rapidfuzz import fuzz

from cms.papers.locks import PROVENANCE_LOCKED_BY
from cms.papers.models import PaperNotice
from cms.papers.notice_types import RETRACTING

from .conf import precedence
from .matching import normalize_title
from .sources.base import AuthorRecord, NoticeRecord, PaperRecord

ID_FIELDS = ("doi", "dblp_key", "openalex_id", "semantic_scholar_id", "arxiv_id", "preprint_doi")
NOTICES = "notices"
# The notice OpenAlex's `is_retracted` stands for while Crossref names no retraction itself.
OPENALEX_RETRACTION = {
    "doi": "",
    "type": "retraction",
    "label": "Retracted",
    "source": PaperNotice.Source.OPENALEX.value,
    "record_id": "",
    "date": None,
}


@dataclass(frozen=True)
class FieldChange:
    field: str
    old: Any
    new: Any
    source: str


def _pick(field: str, records: dict[str, PaperRecord], unavailable: set[str], value_of):
    """(source, value) from the first source in precedence with a value, or None."""
    for source in precedence(field):
        if source in unavailable:
            return None  # a better source failed this time: keep what we have
        record = records.get(source)
        value = value_of(record) if record is not None else None
        if value:
            return source, value
    return None


def _same_person(a: str, b: str) -> bool:
    return fuzz.token_sort_ratio(normalize_title(a), normalize_title(b)) >= 85


def _author_in(record: PaperRecord | None, name: str, position: int) -> AuthorRecord | None:
    if record is None:
        return None
    if position < len(record.authors) and _same_person(record.authors[position].name, name):
        return record.authors[position]
    return next((a for a in record.authors if _same_person(a.name, name)), None)


def _plan_authors(current: dict[str, Any], records, unavailable, locked) -> list[FieldChange]:
    changes: list[FieldChange] = []
    base = (
        None if "authors" in locked else _pick("authors", records, unavailable, lambda r: r.authors)
    )
    old_authors = current["authors"]
    if base is None and not old_authors:
        return changes
    names = [a.name for a in base[1]] if base else [a["name"] for a in old_authors]
    new_authors = []
    orcid_source = affiliation_source = ""
    for position, name in enumerate(names):
        old = next((a for a in old_authors if _same_person(a["name"], name)), None) or {}
        author = {
            "name": name,
            "given": old.get("given", ""),
            "family": old.get("family", ""),
            "orcid": old.get("orcid", ""),
            "affiliations": list(old.get("affiliations", [])),
        }
        if "authors" not in locked:
            ranked = precedence("authors")  # the names' own source splits them first
            for source in sorted(records, key=lambda s: ranked.index(s) if s in ranked else 99):
                found = _author_in(records[source], name, position)
                if found and found.family:
                    author["given"], author["family"] = found.given, found.family
                    break
            for source in precedence("orcid"):
                if source in unavailable:
                    break
                found = _author_in(records.get(source), name, position)
                if found and found.orcid:
                    if author["orcid"] != found.orcid:
                        orcid_source = orcid_source or source
                    author["orcid"] = found.orcid
                    break
        if "affiliations" not in locked:
            for source in precedence("affiliations"):
                if source in unavailable:
                    break
                found = _author_in(records.get(source), name, position)
                if found and found.affiliations:
                    if author["affiliations"] != list(found.affiliations):
                        affiliation_source = affiliation_source or source
                    author["affiliations"] = list(found.affiliations)
                    break
        new_authors.append(author)
    if new_authors != old_authors:
        names_changed = [a["name"] for a in new_authors] != [a["name"] for a in old_authors]
        source = (
            base[0]
            if base and names_changed
            else (orcid_source or affiliation_source or (base[0] if base else ""))
        )
        changes.append(FieldChange("authors", old_authors, new_authors, source))
        if orcid_source:
            changes.append(FieldChange("orcid", None, None, orcid_source))
    if not current["affiliations"] and "affiliations" not in locked and affiliation_source:
        # The printed list is the editors' shorthand; sync fills it only when it is empty.
        institutions = list(
            dict.fromkeys(name for author in new_authors for name in author["affiliations"])
        )
        if institutions:
            changes.append(FieldChange("affiliations", [], institutions, affiliation_source))
    return changes


def notice_as_plain(notice: NoticeRecord) -> dict[str, Any]:
    """A source's notice as `plan_notices` compares it (and a PaperChange stores it)."""
    return {
        "doi": notice.doi,
        "type": notice.type,
        "label": notice.label,
        "source": notice.source,
        "record_id": notice.record_id,
        "date": notice.date.isoformat() if notice.date else None,
    }


def _in_order(notices: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(notices, key=lambda n: (n["date"] or "", n["source"], n["type"], n["doi"]))


def _answered(source: str, records: dict[str, PaperRecord], unavailable) -> PaperRecord | None:
    """`source`'s record when it answered for the paper this time and takes part in notices."""
    if source in unavailable or source not in precedence(NOTICES):
        return None
    return records.get(source)


def plan_notices(
    current: list[dict[str, Any]],
    records: dict[str, PaperRecord],
    unavailable: set[str] = frozenset(),
) -> FieldChange | None:
    """The paper's notices after this sync, or None when they stay as they are.

    A Crossref answer that found the work lists every notice it knows (`updated-by`, publishers'
    and Retraction Watch's), so it replaces the notices it gave before: one gone from it was
    withdrawn upstream. A Crossref that failed, or did not find the work, removes nothing.
    OpenAlex's `is_retracted` adds one "openalex" retraction, or removes it when it answers
    false, only while Crossref names no retraction itself.
    """
    if not current and not any(r.notices or r.is_retracted for r in records.values()):
        return None  # nothing now, nothing said: most papers, most days
    listed = [n for n in current if n["source"] != OPENALEX_RETRACTION["source"]]
    flagged = [n for n in current if n["source"] == OPENALEX_RETRACTION["source"]]
    changed_by = ""
    crossref = _answered("crossref", records, unavailable)
    if crossref is not None and crossref.notices is not None:
        new = [notice_as_plain(n) for n in crossref.notices]
        if _in_order(new) != _in_order(listed):
            changed_by = "crossref"
        listed = new
    openalex = _answered("openalex", records, unavailable)
    if any(n["type"] in RETRACTING for n in listed):
        new_flags = []  # Crossref's own notice says more (its DOI, date, label)
    elif openalex is not None and openalex.is_retracted is not None:
        new_flags = [dict(OPENALEX_RETRACTION)] if openalex.is_retracted else []
    else:
        new_flags = flagged
    if _in_order(new_flags) != _in_order(flagged):
        changed_by = changed_by or "openalex"
    if not changed_by:
        return None
    return FieldChange(NOTICES, _in_order(current), _in_order(listed + new_flags), changed_by)


def plan_changes(
    current: dict[str, Any],
    records: dict[str, PaperRecord],
    *,
    locked: set[str],
    unavailable: set[str] = frozenset(),
) -> list[FieldChange]:
    """The fields to change on one paper. `current` is `selectors.paper_snapshot()`."""
    changes: list[FieldChange] = []
    scalar_fields = {
        "title": lambda r: r.title,
        "abstract": lambda r: r.abstract,
        # A preprint's DOI names the preprint: the paper's is its published version's.
        "doi": lambda r: r.version_of_record_doi if r.is_preprint else r.doi,
        **{name: (lambda r, name=name: r.ids.get(name, "")) for name in ID_FIELDS[1:]},
        "preprint_doi": lambda r: r.doi if r.is_preprint else r.preprint_doi,
    }
    for field, value_of in scalar_fields.items():
        if field in locked:
            continue
        picked = _pick(field, records, unavailable, value_of)
        if picked and picked[1] != current[field]:
            changes.append(FieldChange(field, current[field], picked[1], picked[0]))
    changes += _plan_authors(current, records, unavailable, locked)
    if "links" not in locked:
        links = list(current["links"])
        known = {link["url"] for link in links}
        first_source = ""
        for source in precedence("links"):
            record = records.get(source)
            for label, url in record.links if record else []:
                if url not in known:
                    links.append({"label": label, "url": url})
                    known.add(url)
                    first_source = first_source or source
        if first_source:  # editors' links are kept; sources only add
            changes.append(FieldChange("links", current["links"], links, first_source))
    # Never locked: nobody sets notices by hand.
    notices = plan_notices(current[NOTICES], records, unavailable)
    if notices is not None:
        changes.append(notices)
    return [c for c in changes if PROVENANCE_LOCKED_BY.get(c.field) not in locked]
