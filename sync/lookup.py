"""Looking a paper up by what an editor has in hand, through the sync's own sources, matching
and merge: nothing here asks a source or merges records any other way than a sync does.

Two rounds. First every source that can look the identifier up directly does
(`Source.resolve`: a DOI at Crossref, OpenAlex and Semantic Scholar, an arXiv id at Semantic
Scholar and OpenAlex, a DBLP key or USENIX page in DBLP's table of contents, a title in DBLP's
and Crossref's searches). That tells which paper it is; a title stops there with its
candidates, for the editor to pick one. Then the sources that had nothing to go by are asked
as a sync asks them (`fetching.Fetch`, e.g. DBLP by its table of contents once the venue and
year are known), and `merge.plan_changes` merges every record against an empty paper, so each
field says which source gave it. Sources keep their rate limits and circuit breakers; the whole
lookup has one deadline (`SYNC_LOOKUP_TIMEOUT`), after which the sources still asking are named.
An editor is waiting, so a source that cannot be connected to at all (its name does not resolve,
the connection is refused) is given up at once rather than retried until the deadline, and is
named with the reason a sync gives (`sources.base.describe_failure`).
"""

from __future__ import annotations

import dataclasses
import time
from concurrent.futures import ThreadPoolExecutor, wait

from django.utils.translation import gettext as _

from cms.papers.locks import LOCKABLE_FIELDS
from cms.papers.models import Venue

from .conf import precedence, sync_setting
from .errors import SourceError
from .fetching import Fetch
from .identifiers import DBLP, DOI, TITLE, Identifier, recognise, venue_for, venue_of_dblp_key
from .matching import normalize_title, title_score
from .merge import ID_FIELDS, NOTICES, FieldChange, plan_changes
from .selectors import existing_paper
from .sources import get_sources
from .sources.base import PaperQuery, PaperRecord, Source

MAX_CANDIDATES = 8
CANDIDATE_MIN_SCORE = 60.0
EMPTY_PAPER = {
    "title": "",
    "abstract": "",
    **dict.fromkeys(ID_FIELDS, ""),
    "authors": [],
    "affiliations": [],
    "links": [],
    NOTICES: [],
}


class NotFound(LookupError):
    """No source knows the identifier (or none answered)."""


@dataclasses.dataclass(frozen=True)
class Candidate:
    """One of a title search's answers, as an editor picks it: enough to tell papers apart."""

    title: str
    venue: str  # the site venue, or "" when the paper is from another venue
    venue_name: str  # as the source names it
    year: int | None
    authors: tuple[str, ...]
    identifier: str  # what to look it up by next: a DOI or a DBLP key
    sources: tuple[str, ...]


@dataclasses.dataclass
class Found:
    """What a lookup found: a merged record ready to save, an existing paper, or candidates."""

    identifier: Identifier
    title: str = ""
    venue: str = ""
    venue_name: str = ""
    year: int | None = None
    changes: list[FieldChange] = dataclasses.field(default_factory=list)
    records: dict[str, PaperRecord] = dataclasses.field(default_factory=dict)
    unanswered: dict[str, str] = dataclasses.field(default_factory=dict)  # source -> why
    existing_id: int | None = None
    candidates: list[Candidate] = dataclasses.field(default_factory=list)

    @property
    def venue_source(self) -> str:
        return next((n for n, r in self.records.items() if venue_for(r.venue) == self.venue), "")

    @property
    def year_source(self) -> str:
        return next((n for n, r in self.records.items() if r.year == self.year), "")

    @property
    def problem(self) -> str:
        """Why the record cannot be saved as it is, or ""."""
        if self.existing_id or self.candidates:
            return ""
        if not self.venue:
            return _(
                "“%(title)s” appeared in %(venue)s, not at a venue this site covers (%(venues)s)."
            ) % {
                "title": self.title,
                "venue": self.venue_name or _("an unknown venue"),
                "venues": ", ".join(Venue.values),
            }
        if not self.year:
            return _("No source gave the year of “%(title)s”.") % {"title": self.title}
        return ""


def look_up(text: str | Identifier, *, timeout: float | None = None) -> Found:
    """Look `text` up. Raises UnrecognisedIdentifier for input that is no identifier, NotFound
    when no source knows it; writes nothing."""
    identifier = text if isinstance(text, Identifier) else recognise(text)
    deadline = time.monotonic() + (timeout or sync_setting("SYNC_LOOKUP_TIMEOUT"))
    sources = get_sources(fail_fast=True)
    found_by, unanswered = _resolve(sources, identifier, deadline)
    found = Found(identifier, unanswered=unanswered)
    if identifier.kind == TITLE:
        found.candidates = _candidates(identifier, found_by)
        if not found.candidates:
            raise NotFound(_nothing_found(identifier, unanswered))
        return found
    found.records = {name: _pick(records) for name, records in found_by.items() if records}
    if not found.records:
        raise NotFound(_nothing_found(identifier, unanswered))
    _follow_version_of_record(found, sources, deadline)
    _identify(found)
    if found.existing_id:
        return found
    asked = set(found.records) | set(unanswered)
    missing = [source.name for source in sources if source.name not in asked]
    if missing and found.venue and found.year:
        fetch = Fetch([_query(found)], missing, deadline=deadline, fail_fast=True).start()
        for answers in fetch:
            found.records.update(answers.records)
            found.unanswered.update(
                {name: message for name, message in answers.errors.items() if name in missing}
            )
        _identify(found)
    order = {name: i for i, name in enumerate(precedence("title"))}
    found.records = dict(sorted(found.records.items(), key=lambda item: order.get(item[0], 99)))
    found.changes = plan_changes(EMPTY_PAPER, found.records, locked=set())
    return found


def _resolve(
    sources: list[Source], identifier: Identifier, deadline: float
) -> tuple[dict[str, list[PaperRecord]], dict[str, str]]:
    """Every source's `resolve`, side by side, until the deadline."""
    found: dict[str, list[PaperRecord]] = {}
    unanswered: dict[str, str] = {}
    pool = ThreadPoolExecutor(len(sources) or 1, thread_name_prefix="lookup-source")
    futures = {pool.submit(source.resolve, identifier): source for source in sources}
    done, pending = wait(futures, timeout=max(0.0, deadline - time.monotonic()))
    pool.shutdown(wait=False, cancel_futures=True)
    for future in done:
        source = futures[future]
        try:
            found[source.name] = future.result()
        except SourceError as error:
            unanswered[source.name] = str(error)
    for future in pending:
        source = futures[future]
        unanswered[source.name] = _("%(source)s did not answer in time") % {
            "source": source.display_name
        }
    return found, unanswered


def _follow_version_of_record(found: Found, sources: list[Source], deadline: float) -> None:
    """When every record found is a preprint's (an arXiv id, a preprint server's DOI) and one
    of them names its published version (Crossref `is-preprint-of`, OpenAlex's published
    location), look that version's DOI up too: the paper is added as published (its DOI, venue
    and year). A source's published record replaces its preprint's, whose DOI it keeps as the
    paper's preprint DOI (the preprint the editor had in hand)."""
    if any(not record.is_preprint for record in found.records.values()):
        return
    published = next(
        (r.version_of_record_doi for r in found.records.values() if r.version_of_record_doi), ""
    )
    if not published:
        return
    asked = [source for source in sources if source.name not in found.unanswered]
    found_by, unanswered = _resolve(asked, Identifier(DOI, published), deadline)
    for name, records in found_by.items():
        record = next((r for r in records if not r.is_preprint), None)
        if record is None:
            continue
        preprint = found.records.get(name)
        if preprint is not None:
            record = dataclasses.replace(record, preprint_doi=preprint.doi)
        found.records[name] = record
    found.unanswered.update(
        {name: message for name, message in unanswered.items() if name not in found.records}
    )


def _pick(records: list[PaperRecord]) -> PaperRecord:
    """The record an id names: the published version before a preprint."""
    return next((record for record in records if not record.is_preprint), records[0])


def _identify(found: Found) -> None:
    """Title, venue, year and the paper already on the site, from the records so far."""
    records = list(found.records.values())
    published = [record for record in records if not record.is_preprint] or records
    by_title = {name: found.records[name] for name in precedence("title") if name in found.records}
    found.title = next(
        (r.title for r in by_title.values() if not r.is_preprint), published[0].title
    )
    found.year = found.identifier.year or next((r.year for r in published if r.year), None)
    ids = _ids(found)
    venues = [venue_for(r.venue) for r in by_title.values() if not r.is_preprint]
    venues.append(venue_of_dblp_key(ids.get("dblp_key", ""))[0])
    found.venue = found.identifier.venue or next((venue for venue in venues if venue), "")
    found.venue_name = next((r.venue for r in published if r.venue), "")
    existing = existing_paper(
        doi=ids.get("doi", ""),
        dblp_key=ids.get("dblp_key", ""),
        arxiv_id=ids.get("arxiv_id", ""),
        title=found.title,
        year=found.year,
    )
    found.existing_id = existing.pk if existing else None


def _ids(found: Found) -> dict[str, str]:
    ids: dict[str, str] = {}
    for record in found.records.values():
        for name, value in record.ids.items():
            ids.setdefault(name, value)
        if record.doi and not record.is_preprint:
            ids.setdefault("doi", record.doi)
    for record in found.records.values():  # else a preprint's published version
        if record.version_of_record_doi:
            ids.setdefault("doi", record.version_of_record_doi)
    preprints = {record.doi for record in found.records.values() if record.is_preprint}
    if found.identifier.kind == DBLP or (
        found.identifier.kind == DOI and found.identifier.value not in preprints
    ):
        ids[found.identifier.kind] = found.identifier.value
    return ids


def _query(found: Found) -> PaperQuery:
    ids = _ids(found)
    first = next((r.authors[0].name for r in found.records.values() if r.authors), "")
    return PaperQuery(
        paper_id=0,
        title=found.title,
        venue=found.venue,
        year=found.year or 0,
        doi=ids.pop("doi", ""),
        first_author=first,
        ids=ids,
    )


def _candidates(identifier: Identifier, found_by: dict[str, list[PaperRecord]]) -> list[Candidate]:
    """A title search's answers, one per paper (title and year), best first."""
    grouped: dict[tuple[str, int | None], list[tuple[str, PaperRecord]]] = {}
    for name in precedence("title"):
        for record in found_by.get(name, []):
            if record.is_preprint:
                continue
            if identifier.year and record.year and abs(record.year - identifier.year) > 1:
                continue
            grouped.setdefault((normalize_title(record.title), record.year), []).append(
                (name, record)
            )
    candidates = []
    for group in grouped.values():
        records = [record for _name, record in group]
        key = next((r.ids["dblp_key"] for r in records if r.ids.get("dblp_key")), "")
        doi = next((r.doi for r in records if r.doi), "")
        venue = next((v for r in records if (v := venue_for(r.venue))), "")
        venue = venue or venue_of_dblp_key(key)[0]
        if identifier.venue and venue and venue != identifier.venue:
            continue
        if not (doi or key):
            continue
        first = records[0]
        candidates.append(
            (
                title_score(identifier.value, first.title),
                Candidate(
                    title=first.title,
                    venue=venue,
                    venue_name=next((r.venue for r in records if r.venue), ""),
                    year=first.year,
                    authors=tuple(
                        a.name for a in next((r.authors for r in records if r.authors), [])[:3]
                    ),
                    identifier=doi or key,
                    sources=tuple(dict.fromkeys(name for name, _record in group)),
                ),
            )
        )
    candidates = [pair for pair in candidates if pair[0] >= CANDIDATE_MIN_SCORE]
    # Papers of the site's venues first (the others cannot be added), each group best first.
    candidates.sort(key=lambda pair: (not pair[1].venue, -pair[0]))
    return [candidate for _score, candidate in candidates[:MAX_CANDIDATES]]


def _nothing_found(identifier: Identifier, unanswered: dict[str, str]) -> str:
    """Why nothing was found: no source knows it, or the ones that might did not answer."""
    kind = {
        "doi": _("DOI"),
        "dblp_key": _("DBLP key"),
        "arxiv_id": _("arXiv id"),
        "usenix": _("USENIX page"),
        "openalex_id": _("OpenAlex id"),
        "semantic_scholar_id": _("Semantic Scholar id"),
        "title": _("title"),
    }[identifier.kind]
    values = {"kind": kind, "value": identifier.value}
    if not unanswered:
        return _("No source knows the %(kind)s “%(value)s”.") % values
    return _(
        "Nothing found for the %(kind)s “%(value)s”, but not every source answered (%(sources)s), "
        "so it may exist: try again later, or enter the paper by hand."
    ) % {**values, "sources": "; ".join(unanswered.values())}


def shown_fields(found: Found) -> list[tuple[str, str, str]]:
    """The merged record as an editor reads it before saving: (field, value, source) rows."""
    labels = {
        **dict(LOCKABLE_FIELDS),
        "preprint_doi": _("Preprint DOI"),
        NOTICES: _("Update notices"),
    }
    names = {source.name: source.display_name for source in get_sources()}
    title_source = next((c.source for c in found.changes if c.field == "title"), "")
    rows = [
        (str(labels["title"]), found.title, names.get(title_source, "")),
        (str(labels["venue"]), found.venue, names.get(found.venue_source, "")),
        (str(labels["year"]), str(found.year or ""), names.get(found.year_source, "")),
    ]
    for change in found.changes:
        if change.field in ("title", "orcid"):
            continue
        value = change.new
        if change.field == "authors":
            value = ", ".join(author["name"] for author in value)
        elif change.field == "links":
            value = " ".join(link["url"] for link in value)
        elif change.field == NOTICES:
            value = "; ".join(
                " ".join(filter(None, (n["label"], n["date"], n["doi"] and f"({n['doi']})")))
                for n in value
            )
        elif isinstance(value, list):
            value = "; ".join(map(str, value))
        label = str(labels.get(change.field, change.field))
        rows.append((label, str(value), names.get(change.source, change.source)))
    return rows
