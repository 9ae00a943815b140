"""The sync's write side: the only code that writes Paper rows (and their sync state).

A batch asks every source side by side (sync/fetching.py; no transaction is held while waiting
on the network) and writes its papers a chunk at a time as their answers complete, each chunk
in one short transaction together with the papers' sync state and the run's counts, so a
worker killed mid-batch leaves each paper either fully synced and counted or untouched and still
owed, and a redelivered batch skips the papers already done. A batch leases the papers it
works on (sync/owed.py) and writes only those it still holds.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable
from contextlib import nullcontext
from datetime import date, datetime, timedelta
from functools import partial
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from wagtail.search.index import insert_or_update_object

from cms.ops.db import serialize_transactions, update_rows
from cms.papers.models import Paper, PaperAffiliation, PaperAuthor, PaperLink, PaperNotice
from cms.papers.one_line import one_line
from cms.papers.serializers import PAPER_PREFETCH
from cms.papers.signals import notices_added, papers_changed

from . import owed, runs
from .conf import sync_setting
from .fetching import Fetch, PaperAnswers
from .lookup import Found
from .merge import ID_FIELDS, NOTICES, FieldChange, plan_changes
from .models import PaperChange, PaperSyncState, SyncError, SyncRun
from .selectors import (
    NOTICES_PREFETCH,
    existing_paper,
    notice_rows,
    paper_queries,
    paper_snapshot,
)
from .sources import display_name
from .sources.base import PaperRecord
from .text import has_dangerous_markup

Progress = Callable[[int], None]
SCALAR_FIELDS = ("title", "abstract", *ID_FIELDS)
INDEXED_FIELDS = {"title", "doi"}  # what Paper.search_fields index among the synced fields


@dataclasses.dataclass
class BatchOutcome:
    """What one batch did, summed into its run."""

    matched: int = 0
    changed: int = 0
    fields: int = 0
    skipped: int = 0
    requests: Counter = dataclasses.field(default_factory=Counter)
    records_skipped: Counter = dataclasses.field(default_factory=Counter)  # unreadable records
    errors: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    plans: dict[int, list[FieldChange]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class _Planned:
    paper: Paper
    changes: list[FieldChange]
    errors: dict[str, str]
    retry_later: bool
    matched: bool = False


@dataclasses.dataclass
class _Writing:
    """Who writes a batch's chunks: its run and the lease holder."""

    run: SyncRun | None
    holder: str = ""


# -- planning --------------------------------------------------------------------------------


def _unsafe_records(records: dict[str, PaperRecord], errors: dict[str, str]) -> None:
    """Drop records whose title or names carried script-like markup, as errors of that source."""
    for source, record in list(records.items()):
        if has_dangerous_markup(record.raw_title):
            errors[source] = f"{display_name(source)}: rejected a record with script-like markup"
            del records[source]


def _refuse_taken_dois(planned: list[_Planned], claimed: dict[str, int]) -> None:
    """Drop DOI changes to a DOI another paper holds, or that another paper of the batch
    (`claimed`: DOI -> paper, kept across the batch's chunks) gets first."""
    wanted = {c.new for item in planned for c in item.changes if c.field == "doi"} - set(claimed)
    if wanted:
        claimed.update(Paper.objects.filter(doi__in=wanted).values_list("doi", "pk"))
    for item in planned:
        doi = next((c.new for c in item.changes if c.field == "doi"), "")
        if not doi:
            continue
        if claimed.setdefault(doi, item.paper.pk) != item.paper.pk:
            item.changes = [c for c in item.changes if c.field != "doi"]
            item.errors["doi"] = f"DOI {doi} already belongs to another paper"


# -- writing ---------------------------------------------------------------------------------


def _one_line_author(author: dict) -> dict:
    return {
        **author,
        "name": one_line(author["name"]),
        "given": one_line(author["given"]),
        "family": one_line(author["family"]),
        "affiliations": [one_line(name) for name in author["affiliations"]],
    }


# The fields whose text a citation prints line by line, and how each is put on one line.
_ONE_LINE = {
    "title": one_line,
    "authors": lambda authors: [_one_line_author(author) for author in authors],
    "affiliations": lambda names: [one_line(name) for name in names],
    "links": lambda links: [{**link, "label": one_line(link["label"])} for link in links],
}


def _as_written(change: FieldChange) -> FieldChange:
    """`change` as it may be stored: titles and names without line breaks or control
    characters (cms.papers.one_line), whatever a source sent."""
    clean = _ONE_LINE.get(change.field)
    return dataclasses.replace(change, new=clean(change.new)) if clean else change


def _replace_authors(paper: Paper, authors: list[dict], updates: list, creates: list) -> list:
    """Rewrite the author rows in place (same count is the usual case); rows left over go."""
    rows = list(paper.authors.all())
    for order, author in enumerate(authors):
        row = rows[order] if order < len(rows) else PaperAuthor(paper=paper)
        row.sort_order = order
        row.name = author["name"][:200]
        row.given = author["given"][:200]
        row.family = author["family"][:200]
        row.orcid = author["orcid"][:19]
        row.affiliations = author["affiliations"]
        (updates if row.pk else creates).append(row)
    return [row.pk for row in rows[len(authors) :]]


def _replace_rows(model, paper: Paper, current: list[dict], new: list[dict], make) -> list:
    """Affiliation and link rows: appended ones are created; any other change rewrites them."""
    if new[: len(current)] == current:
        return [make(paper, len(current) + i, value) for i, value in enumerate(new[len(current) :])]
    model.objects.filter(paper=paper).delete()
    return [make(paper, order, value) for order, value in enumerate(new)]


def _affiliation(paper: Paper, order: int, name: str) -> PaperAffiliation:
    return PaperAffiliation(paper=paper, sort_order=order, name=name[:300])


def _link(paper: Paper, order: int, link: dict) -> PaperLink:
    return PaperLink(
        paper=paper, sort_order=order, label=link["label"][:100], url=link["url"][:1000]
    )


@dataclasses.dataclass
class _NoticeWrites:
    """A chunk's notice rows to delete, update and add, written together."""

    gone: list[int] = dataclasses.field(default_factory=list)
    updated: list[PaperNotice] = dataclasses.field(default_factory=list)
    added: list[PaperNotice] = dataclasses.field(default_factory=list)

    def write(self) -> list[int]:
        """Write them; the ids of the notices added."""
        if self.gone:
            PaperNotice.objects.filter(pk__in=self.gone).delete()
        update_rows(PaperNotice, self.updated, ["label", "record_id", "updated_on"])
        return [row.pk for row in PaperNotice.objects.bulk_create(self.added)]


def _notice_values(notice: dict) -> dict:
    """A planned notice as PaperNotice field values (the key fields with the rest)."""
    return {
        "notice_doi": notice["doi"][:200],
        "update_type": notice["type"][:40],
        "label": notice["label"][:100],
        "source": notice["source"][:40],
        "record_id": notice["record_id"][:40],
        "updated_on": date.fromisoformat(notice["date"]) if notice["date"] else None,
    }


def _replace_notices(paper: Paper, new: list[dict], now: datetime, notices: _NoticeWrites) -> None:
    """Plan the paper's notice rows: those whose notice left go, new ones are added (first seen
    now), and the rows kept keep their acknowledgement and e-mail time (their label or date
    follow the source)."""
    rows = {(row.notice_doi, row.update_type, row.source): row for row in notice_rows(paper)}
    wanted = {
        (values["notice_doi"], values["update_type"], values["source"]): values
        for values in map(_notice_values, new)
    }
    notices.gone += [row.pk for key, row in rows.items() if key not in wanted]
    for key, values in wanted.items():
        row = rows.get(key)
        if row is None:
            notices.added.append(PaperNotice(paper=paper, first_seen_at=now, **values))
        elif any(getattr(row, name) != value for name, value in values.items()):
            for name, value in values.items():
                setattr(row, name, value)
            notices.updated.append(row)


def apply_changes(*, items: list[_Planned], run: SyncRun | None, fetched_at: str) -> None:
    """Write the planned changes of `items` with provenance. Call inside a transaction.

    Rows are written in bulk, which sends no model signals, so the things that listen to
    paper writes are called here: the search index (for papers whose indexed fields changed),
    the API's content version (once), and, once the transaction commits, whoever tells
    editors of new update notices.
    """
    now = timezone.now()
    papers, fields = [], {"provenance", "updated_at"}
    author_updates: list[PaperAuthor] = []
    new_rows: dict[type, list] = {PaperAuthor: [], PaperAffiliation: [], PaperLink: []}
    gone_authors: list[int] = []
    notices = _NoticeWrites()
    reindex: list[Paper] = []
    for item in items:
        if not item.changes:
            continue
        item.changes = [_as_written(change) for change in item.changes]
        paper = item.paper
        provenance = dict(paper.provenance or {})
        for change in item.changes:
            provenance[change.field] = {"source": change.source, "fetched_at": fetched_at}
            if change.field in SCALAR_FIELDS:
                setattr(paper, change.field, change.new)
                fields.add(change.field)
            elif change.field == "authors":
                gone_authors += _replace_authors(
                    paper, change.new, author_updates, new_rows[PaperAuthor]
                )
            elif change.field == "affiliations":
                current = [a.name for a in paper.affiliations.all()]
                new_rows[PaperAffiliation] += _replace_rows(
                    PaperAffiliation, paper, current, change.new, _affiliation
                )
            elif change.field == "links":
                current = [{"label": link.label, "url": link.url} for link in paper.links.all()]
                new_rows[PaperLink] += _replace_rows(PaperLink, paper, current, change.new, _link)
            elif change.field == NOTICES:
                _replace_notices(paper, change.new, now, notices)
        paper.provenance = provenance
        paper.updated_at = now
        papers.append(paper)
        if INDEXED_FIELDS & {c.field for c in item.changes}:
            reindex.append(paper)
    if not papers:
        return
    update_rows(Paper, papers, sorted(fields))
    if gone_authors:
        PaperAuthor.objects.filter(pk__in=gone_authors).delete()
    update_rows(
        PaperAuthor,
        author_updates,
        ["sort_order", "name", "given", "family", "orcid", "affiliations"],
    )
    for model, rows in new_rows.items():
        model.objects.bulk_create(rows)
    added = notices.write()
    for paper in reindex:
        insert_or_update_object(paper)
    if run is not None:
        PaperChange.objects.bulk_create(
            PaperChange(
                run=run, paper=item.paper, field=c.field, source=c.source, old=c.old, new=c.new
            )
            for item in items
            for c in item.changes
            if c.old != c.new
        )
    # The fields whose value changed (a change of provenance alone shows no front end anything).
    written = {
        item.paper.pk: sorted({c.field for c in item.changes if c.old != c.new}) for item in items
    }
    papers_changed.send(
        sender=Paper,
        paper_ids=[paper.pk for paper in papers],
        fields={paper.pk: written[paper.pk] for paper in papers},
    )
    if added:  # only once they are there for whoever reads them
        transaction.on_commit(partial(notices_added.send, sender=Paper, notice_ids=added))


def retry_note(not_before: datetime | None) -> str:
    """When a failed paper is tried again, as the error's last sentence."""
    if not_before is None:
        return "Not retried automatically: waiting will not fix it."
    return f"Retried automatically after {not_before:%Y-%m-%d %H:%M} UTC."


def _settle_state(state: PaperSyncState, item: _Planned, run: SyncRun | None, now) -> None:
    """The paper's state after this sync: released, and either synced or failed once more.

    `last_synced_at` is when the paper was last synced in full: every source answered and
    nothing it sent was refused. It moves only then, together with `failed_attempts` going back
    to 0, so the pair reads "synced in full at X, failed N times since" - a sync that failed,
    even partly, leaves it where it was: the fields of the sources that did answer are written
    all the same, each with its own time in the provenance. Nothing schedules by it: a failed
    paper is retried at `not_before` (exponential backoff, `sync_due`), and every paper by the
    daily sync of all papers, however old its `last_synced_at`.
    """
    state.in_flight = False
    state.lease_until, state.leased_by = None, ""
    state.run = run
    if item.errors:
        state.failed_attempts += 1
        delay = sync_setting("SYNC_RETRY_BASE_DELAY") * 2 ** (state.failed_attempts - 1)
        state.not_before = now + timedelta(seconds=min(delay, 7 * 24 * 3600))
        if not item.retry_later:
            state.not_before = None  # a permanent fault: waiting will not fix it
        messages = [*item.errors.values(), retry_note(state.not_before)]
        state.last_error = " ".join(_sentence(m) for m in messages)[:2000]
    else:
        state.failed_attempts, state.last_error, state.not_before = 0, "", None
        state.last_synced_at = now


def _sentence(message: str) -> str:
    message = message.strip()
    return message if message.endswith((".", "!", "?")) else f"{message}."


def _write_chunk(items: list[_Planned], writing: _Writing) -> set[int]:
    """Some papers' content and state, and the run's counts (call inside the transaction that
    read and locked the papers); the ids written (not those another worker did already, nor
    those whose lease this one lost)."""
    pks = [item.paper.pk for item in items]
    run = writing.run
    fetched_at = timezone.now().isoformat(timespec="seconds")
    states = {
        state.paper_id: state
        for state in PaperSyncState.objects.select_for_update().filter(paper_id__in=pks)
    }
    missing = [PaperSyncState(paper_id=pk) for pk in pks if pk not in states]
    for state in PaperSyncState.objects.bulk_create(missing):
        states[state.paper_id] = state
    held = [
        item
        for item in items
        if run is None
        or (
            states[item.paper.pk].run_id == run.pk
            and states[item.paper.pk].in_flight
            and states[item.paper.pk].leased_by == writing.holder
        )
    ]
    apply_changes(items=held, run=run, fetched_at=fetched_at)
    now = timezone.now()
    for item in held:
        _settle_state(states[item.paper.pk], item, run, now)
    update_rows(
        PaperSyncState,
        [states[item.paper.pk] for item in held],
        [
            "in_flight",
            "lease_until",
            "leased_by",
            "run",
            "last_synced_at",
            "failed_attempts",
            "last_error",
            "not_before",
        ],
    )
    if run is not None:
        runs.count_chunk(
            run,
            matched=sum(item.matched for item in held),
            changed=sum(any(c.old != c.new for c in item.changes) for item in held),
            fields=sum(c.old != c.new for item in held for c in item.changes),
            errors=(
                SyncError(
                    run=run,
                    paper=item.paper,
                    source=source,
                    message=message,
                    retry_at=states[item.paper.pk].not_before,
                )
                for item in held
                for source, message in item.errors.items()
            ),
        )
    return {item.paper.pk for item in held}


def _write(
    answered: list[PaperAnswers], writing: _Writing, claimed: dict[str, int], *, doi: bool = True
) -> tuple[list[_Planned], set[int]]:
    """Read, plan and write a chunk in one transaction, its papers' rows locked from the read
    to the write: an editor's save lands either before, and is planned around (a field they
    locked stays theirs), or after, as a later save. If a constraint fails (a DOI taken
    meanwhile), paper by paper, and a paper that still fails without its DOI change."""
    try:
        with transaction.atomic():
            planned = _plan_chunk(answered, claimed, lock=True)
            if not doi:
                for item in planned:
                    item.changes = [c for c in item.changes if c.field != "doi"]
                    item.errors["doi"] = "Could not write the DOI: another paper took it meanwhile"
            return planned, _write_chunk(planned, writing) if planned else set()
    except IntegrityError:
        if not doi:
            raise
        if len(answered) > 1:
            done = [_write([answers], writing, claimed) for answers in answered]
            return [item for planned, _ in done for item in planned], set().union(
                *(written for _, written in done)
            )
        return _write(answered, writing, claimed, doi=False)


def _plan(paper: Paper, answers: PaperAnswers) -> _Planned:
    records, errors = answers.records, answers.errors
    _unsafe_records(records, errors)
    changes = plan_changes(
        paper_snapshot(paper),
        records,
        locked=set(paper.locked_fields or []),
        unavailable=set(errors),
    )
    return _Planned(paper, changes, errors, answers.retry_later, matched=bool(records))


def sync_batch(
    *,
    paper_ids: Iterable[int],
    run: SyncRun | None,
    source_names: list[str] | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
    scope: str = "",
    token: str = "",
) -> BatchOutcome:
    """Sync some papers: ask every source, and write papers a chunk per transaction as soon as
    every source has answered for them.

    With a run, only papers the run still owes and no live worker holds are synced (leased
    while this batch works; `token` is the lease they were handed out under), so a redelivered
    batch never syncs a paper twice, and listings are shared by the run's batches (`scope` does
    the same for a dry run, which has no run).
    """
    outcome = BatchOutcome()
    ids = list(paper_ids)
    writing = _Writing(run)
    if run is not None:
        writing.holder = owed.new_holder()
        ids = owed.claim(run=run, paper_ids=ids, holder=writing.holder, token=token)
    queries = paper_queries(ids)
    if not queries:
        return outcome
    # Each request is counted durably as it goes out (sync/runs.py), from the sources' threads,
    # in autocommit. A batch called inside a transaction (a test's, or a caller's own) cannot
    # commit from other threads what its transaction does not show them: it counts at the end.
    durable = run is not None and not transaction.get_connection().in_atomic_block
    fetch = Fetch(
        queries,
        source_names,
        listing_scope=runs.listing_scope(run) if run is not None else scope,
        count_request=partial(runs.count_request, run.pk) if durable else None,
    )
    lease = nullcontext()
    if run is not None:
        lease = owed.PaperLease(run=run, holder=writing.holder)
    with lease:
        try:
            fetch.start()
            claimed: dict[str, int] = {}
            answered: list[PaperAnswers] = []
            for answers in fetch:
                answered.append(answers)
                if len(answered) >= sync_setting("SYNC_WRITE_CHUNK"):
                    _sync_chunk(answered, writing, dry_run, claimed, outcome, progress)
                    answered = []
            if answered:
                _sync_chunk(answered, writing, dry_run, claimed, outcome, progress)
        finally:  # requests made count even if the batch failed
            if run is not None and not durable:
                runs.count_requests(run.pk, fetch.requests)
    outcome.requests = fetch.requests
    outcome.records_skipped = fetch.records_skipped
    return outcome


def _sync_chunk(
    answered: list[PaperAnswers],
    writing: _Writing,
    dry_run: bool,
    claimed: dict[str, int],
    outcome: BatchOutcome,
    progress: Progress | None,
) -> None:
    """Plan and write one chunk of papers, reading them (with their authors, affiliations and
    links) only now: a batch holds the papers it is writing, not all 500 from its start."""
    if dry_run:
        planned = _plan_chunk(answered, claimed, lock=False)
        written = {item.paper.pk for item in planned}
    else:
        planned, written = _write(answered, writing, claimed)
    outcome.skipped += len(answered) - len(planned)  # deleted while the sources were asked
    for item in planned:
        outcome.matched += item.matched  # what is left after refusing unsafe records
        outcome.plans[item.paper.pk] = item.changes
        for source, message in item.errors.items():
            error = {"paper": item.paper.pk, "source": source, "message": message}
            outcome.errors.append(error)
        if item.paper.pk in written:
            outcome.fields += len(item.changes)
            outcome.changed += bool(item.changes)
        else:
            outcome.skipped += 1
    if progress:
        progress(len(answered))  # deleted papers too: every paper of the batch is accounted for


def _plan_chunk(
    answered: list[PaperAnswers], claimed: dict[str, int], *, lock: bool
) -> list[_Planned]:
    """The chunk's papers as they are now (their rows locked for the write when `lock`), each
    with the changes its sources' answers make; papers deleted meanwhile are left out."""
    papers = Paper.objects.prefetch_related(*PAPER_PREFETCH, NOTICES_PREFETCH).order_by("pk")
    if lock:
        papers = papers.select_for_update()
    found = papers.in_bulk([answers.paper_id for answers in answered])
    planned = [
        _plan(found[answers.paper_id], answers) for answers in answered if answers.paper_id in found
    ]
    _refuse_taken_dois(planned, claimed)
    return planned


# -- papers added by an editor's lookup ------------------------------------------------------


def paper_create_from_lookup(*, found: Found) -> tuple[Paper, bool]:
    """Save what `lookup.look_up` found as a new paper, each field with its source, through
    the same `apply_changes` a sync writes with; (paper, created). A paper with one of its
    identifiers, or its title and year, is returned instead of a second one."""
    if found.problem or found.candidates:
        raise ValueError(found.problem or "a title's candidates are not a paper")
    fetched_at = timezone.now().isoformat(timespec="seconds")
    doi = next((c.new for c in found.changes if c.field == "doi"), "")
    try:
        with transaction.atomic():
            # Two adds at the same moment (two editors, a double click) would each find no
            # paper and each make one: a paper without a DOI has no constraint to stop the
            # second. The second now waits for the first, then finds its paper.
            serialize_transactions("sync:paper-create-from-lookup")
            existing = Paper.objects.filter(pk=found.existing_id).first() or existing_paper(
                doi=doi,
                dblp_key=next((c.new for c in found.changes if c.field == "dblp_key"), ""),
                arxiv_id=next((c.new for c in found.changes if c.field == "arxiv_id"), ""),
                title=found.title,
                year=found.year,
            )
            if existing is not None:
                return existing, False
            paper = Paper.objects.create(
                title=one_line(found.title)[:500], venue=found.venue, year=found.year
            )
            changes = [
                *found.changes,
                FieldChange("venue", "", found.venue, found.venue_source),
                FieldChange("year", None, found.year, found.year_source),
            ]
            apply_changes(
                items=[_Planned(paper, changes, {}, False, True)], run=None, fetched_at=fetched_at
            )
            # Synced in full only if every source answered (see `_settle_state`).
            synced_at = None if found.unanswered else timezone.now()
            PaperSyncState.objects.update_or_create(
                paper=paper, defaults={"last_synced_at": synced_at}
            )
    except IntegrityError:  # another editor saved the same DOI meanwhile
        existing = existing_paper(doi=doi)
        if existing is None:
            raise
        return existing, False
    return paper, True
