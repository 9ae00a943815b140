"""The sync's write side: the only code that writes Paper rows, and the run bookkeeping.

A batch asks every source side by side (sync/fetching.py; no transaction is held while waiting
on the network) and writes its papers a chunk at a time as their answers complete, each chunk
in one short transaction together with the papers' sync state, so a worker killed mid-batch
leaves each paper either fully synced or untouched, and a redelivered batch skips the papers
already done.
"""

from __future__ import annotations

import dataclasses
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from datetime import timedelta
from itertools import zip_longest
from typing import Any

from django.db import IntegrityError, connections, router, transaction
from django.db.models import F
from django.utils import timezone
from wagtail.search.index import insert_or_update_object

from cms.apicache.version import bump_content_version
from cms.papers.models import Paper, PaperAffiliation, PaperAuthor, PaperLink
from cms.papers.serializers import PAPER_PREFETCH

from .conf import sync_setting
from .fetching import Fetch, PaperAnswers
from .matching import best_match
from .merge import ID_FIELDS, FieldChange, plan_changes
from .models import DiscoveryCandidate, PaperChange, PaperSyncState, SyncRun
from .sources import get_sources
from .sources.base import PaperQuery, PaperRecord, SourceError
from .sources.dblp import DblpSource
from .text import has_dangerous_markup

Progress = Callable[[int], None]
SCALAR_FIELDS = ("title", "abstract", *ID_FIELDS)
INDEXED_FIELDS = {"title", "doi"}  # what Paper.search_fields index among the synced fields
MAX_RUN_ERRORS = 1000  # errors kept on a run for the admin; the count is complete regardless


@dataclasses.dataclass
class BatchOutcome:
    """What one batch did, summed into its run."""

    matched: int = 0
    changed: int = 0
    fields: int = 0
    skipped: int = 0
    requests: Counter = dataclasses.field(default_factory=Counter)
    errors: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    plans: dict[int, list[FieldChange]] = dataclasses.field(default_factory=dict)


@dataclasses.dataclass
class _Planned:
    paper: Paper
    changes: list[FieldChange]
    errors: dict[str, str]
    retry_later: bool


# -- reading ---------------------------------------------------------------------------------


def paper_snapshot(paper: Paper) -> dict[str, Any]:
    """The synced fields of a paper as plain values, the shape `merge.plan_changes` compares."""
    return {
        "title": paper.title,
        "abstract": paper.abstract,
        **{name: getattr(paper, name) for name in ID_FIELDS},
        "authors": [
            {
                "name": a.name,
                "given": a.given,
                "family": a.family,
                "orcid": a.orcid,
                "affiliations": list(a.affiliations or []),
            }
            for a in paper.authors.all()
        ],
        "affiliations": [a.name for a in paper.affiliations.all()],
        "links": [{"label": link.label, "url": link.url} for link in paper.links.all()],
    }


def paper_query(paper: Paper) -> PaperQuery:
    first = next(iter(paper.authors.all()), None)
    return PaperQuery(
        paper_id=paper.pk,
        title=paper.title,
        venue=paper.venue,
        year=paper.year,
        doi=paper.doi,
        first_author=first.name if first else "",
        ids=paper.ids,
    )


def paper_queries(ids: list[int]) -> list[PaperQuery]:
    """`paper_query` of each paper, from two light queries: the sources can start before the
    papers themselves (authors, affiliations, links) are loaded for merging."""
    first_authors: dict[int, str] = {}
    for paper_id, name in (
        PaperAuthor.objects.filter(paper_id__in=ids)
        .order_by("paper_id", "sort_order", "pk")
        .values_list("paper_id", "name")
    ):
        first_authors.setdefault(paper_id, name)
    queries = []
    rows = Paper.objects.filter(pk__in=ids).values_list("pk", "title", "venue", "year", *ID_FIELDS)
    for pk, title, venue, year, *values in rows:
        known = dict(zip(ID_FIELDS, values, strict=True))
        queries.append(
            PaperQuery(
                paper_id=pk,
                title=title,
                venue=venue,
                year=year,
                doi=known["doi"],
                first_author=first_authors.get(pk, ""),
                ids={name: value for name, value in known.items() if value},
            )
        )
    return queries


def listing_scope(run: SyncRun) -> str:
    """What a run's batches share listings under: unique even across restored databases."""
    return f"run-{run.pk}-{run.started_at.timestamp():.6f}"


# -- planning --------------------------------------------------------------------------------


def _unsafe_records(records: dict[str, PaperRecord], errors: dict[str, str]) -> None:
    """Drop records whose title or names carried script-like markup, as errors of that source."""
    for source, record in list(records.items()):
        if has_dangerous_markup(record.raw_title):
            errors[source] = f"{source}: rejected a record with script-like markup"
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


def _update_rows(model, rows: list, fields: list[str]) -> None:
    """UPDATE `fields` of each of `rows`: one prepared statement, run for all rows at once.

    Django's `bulk_update` builds a CASE expression per field and row; for the thousands of
    author rows of a batch that costs more than everything else the sync does. The SQL is the
    same an individual `save(update_fields=...)` runs, without its signals (see apply_changes).
    """
    if not rows:
        return
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    columns = [model._meta.get_field(name) for name in fields]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in columns)
    sql = (
        f"UPDATE {quote(model._meta.db_table)} SET {assignments} "
        f"WHERE {quote(model._meta.pk.column)} = %s"
    )
    params = [
        [field.get_db_prep_save(getattr(row, field.attname), connection) for field in columns]
        + [row.pk]
        for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


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


def apply_changes(*, items: list[_Planned], run: SyncRun | None, fetched_at: str) -> None:
    """Write the planned changes of `items` with provenance. Call inside a transaction.

    Rows are written in bulk, which sends no model signals, so the two things that listen to
    paper writes are called here: the search index (for papers whose indexed fields changed)
    and the API's content version (once).
    """
    now = timezone.now()
    papers, fields = [], {"provenance", "updated_at"}
    author_updates: list[PaperAuthor] = []
    new_rows: dict[type, list] = {PaperAuthor: [], PaperAffiliation: [], PaperLink: []}
    gone_authors: list[int] = []
    reindex: list[Paper] = []
    for item in items:
        if not item.changes:
            continue
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
        paper.provenance = provenance
        paper.updated_at = now
        papers.append(paper)
        if INDEXED_FIELDS & {c.field for c in item.changes}:
            reindex.append(paper)
    if not papers:
        return
    _update_rows(Paper, papers, sorted(fields))
    if gone_authors:
        PaperAuthor.objects.filter(pk__in=gone_authors).delete()
    _update_rows(
        PaperAuthor,
        author_updates,
        ["sort_order", "name", "given", "family", "orcid", "affiliations"],
    )
    for model, rows in new_rows.items():
        model.objects.bulk_create(rows)
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
    bump_content_version()


def _settle_state(state: PaperSyncState, item: _Planned, run: SyncRun | None, now) -> None:
    state.in_flight = False
    state.run = run
    state.last_synced_at = now
    if item.errors:
        state.failed_attempts += 1
        state.last_error = "; ".join(f"{s}: {m}" for s, m in item.errors.items())[:2000]
        delay = sync_setting("SYNC_RETRY_BASE_DELAY") * 2 ** (state.failed_attempts - 1)
        state.not_before = now + timedelta(seconds=min(delay, 7 * 24 * 3600))
        if not item.retry_later:
            state.not_before = None  # a permanent fault: waiting will not fix it
    else:
        state.failed_attempts, state.last_error, state.not_before = 0, "", None


def _write_chunk(items: list[_Planned], run: SyncRun | None, fetched_at: str) -> set[int]:
    """Some papers' content and state in one transaction; the ids written (not those another
    worker did already)."""
    pks = [item.paper.pk for item in items]
    with transaction.atomic():
        states = {
            state.paper_id: state
            for state in PaperSyncState.objects.select_for_update().filter(paper_id__in=pks)
        }
        missing = [PaperSyncState(paper_id=pk) for pk in pks if pk not in states]
        for state in PaperSyncState.objects.bulk_create(missing):
            states[state.paper_id] = state
        owed = [
            item
            for item in items
            if run is None
            or (states[item.paper.pk].run_id == run.pk and states[item.paper.pk].in_flight)
        ]
        apply_changes(items=owed, run=run, fetched_at=fetched_at)
        now = timezone.now()
        for item in owed:
            _settle_state(states[item.paper.pk], item, run, now)
        _update_rows(
            PaperSyncState,
            [states[item.paper.pk] for item in owed],
            ["in_flight", "run", "last_synced_at", "failed_attempts", "last_error", "not_before"],
        )
    return {item.paper.pk for item in owed}


def _write(items: list[_Planned], run: SyncRun | None, fetched_at: str) -> set[int]:
    """Write a chunk; if a constraint fails (a DOI taken meanwhile), paper by paper instead."""
    try:
        return _write_chunk(items, run, fetched_at)
    except IntegrityError:
        if len(items) > 1:
            return set().union(*(_write([item], run, fetched_at) for item in items))
    item = items[0]
    item.paper.refresh_from_db()  # the failed transaction left the instance half-changed
    item.changes = [c for c in item.changes if c.field != "doi"]
    item.errors["doi"] = "could not write the DOI: another paper took it meanwhile"
    return _write_chunk([item], run, fetched_at)


def _plan(paper: Paper, answers: PaperAnswers) -> _Planned:
    records, errors = answers.records, answers.errors
    _unsafe_records(records, errors)
    changes = plan_changes(
        paper_snapshot(paper),
        records,
        locked=set(paper.locked_fields or []),
        unavailable=set(errors),
    )
    return _Planned(paper, changes, errors, answers.retry_later)


def sync_batch(
    *,
    paper_ids: Iterable[int],
    run: SyncRun | None,
    source_names: list[str] | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
    scope: str = "",
) -> BatchOutcome:
    """Sync some papers: ask every source, and write papers a chunk per transaction as soon as
    every source has answered for them.

    With a run, only papers the run still owes (`in_flight`) are synced, so a redelivered batch
    never syncs a paper twice, and listings are shared by the run's batches (`scope` does the
    same for a dry run, which has no run).
    """
    outcome = BatchOutcome()
    ids = list(paper_ids)
    if run is not None:
        ids = list(
            PaperSyncState.objects.filter(paper_id__in=ids, run=run, in_flight=True).values_list(
                "paper_id", flat=True
            )
        )
    queries = paper_queries(ids)
    if not queries:
        return outcome
    fetch = Fetch(
        queries, source_names, listing_scope=listing_scope(run) if run is not None else scope
    ).start()
    papers = {p.pk: p for p in Paper.objects.filter(pk__in=ids).prefetch_related(*PAPER_PREFETCH)}
    claimed: dict[str, int] = {}
    chunk: list[_Planned] = []
    for answers in fetch:
        item = _plan(papers.pop(answers.paper_id), answers)
        outcome.matched += bool(answers.records)  # what is left after refusing unsafe ones
        chunk.append(item)
        if len(chunk) >= sync_setting("SYNC_WRITE_CHUNK"):
            _write_planned(chunk, run, dry_run, claimed, outcome, progress)
            chunk = []
    if chunk:
        _write_planned(chunk, run, dry_run, claimed, outcome, progress)
    outcome.requests = fetch.requests
    return outcome


def _write_planned(
    chunk: list[_Planned],
    run: SyncRun | None,
    dry_run: bool,
    claimed: dict[str, int],
    outcome: BatchOutcome,
    progress: Progress | None,
) -> None:
    _refuse_taken_dois(chunk, claimed)
    fetched_at = timezone.now().isoformat(timespec="seconds")
    written = {item.paper.pk for item in chunk} if dry_run else _write(chunk, run, fetched_at)
    for item in chunk:
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
        progress(len(chunk))


# -- runs ------------------------------------------------------------------------------------


def run_start(
    *,
    kind: str,
    trigger: str,
    paper_ids: list[int],
    source_names: list[str] | None = None,
    task_id: str = "",
) -> SyncRun | None:
    """Create a run owning `paper_ids`; None if it is `all` and another `all` run is running.

    The partial unique constraint on SyncRun is the lock: it holds across processes and
    databases, and survives a broker restart. A run whose heartbeat stopped long ago belonged
    to a worker that died without redelivery; it is failed so a new one can start.
    """
    stale_before = timezone.now() - timedelta(seconds=sync_setting("SYNC_STALE_RUN_AFTER"))
    SyncRun.objects.filter(status=SyncRun.Status.RUNNING, heartbeat_at__lt=stale_before).update(
        status=SyncRun.Status.FAILED, finished_at=timezone.now()
    )
    try:
        with transaction.atomic():
            run = SyncRun.objects.create(
                kind=kind,
                trigger=trigger[:100],
                task_id=task_id or "",
                sources=source_names or [],
                papers_total=len(paper_ids),
            )
            existing = set(
                PaperSyncState.objects.filter(paper_id__in=paper_ids).values_list(
                    "paper_id", flat=True
                )
            )
            PaperSyncState.objects.bulk_create(
                PaperSyncState(paper_id=pk) for pk in paper_ids if pk not in existing
            )
            PaperSyncState.objects.filter(paper_id__in=paper_ids).update(run=run, in_flight=True)
    except IntegrityError:
        return None
    return run


def batch_order(rows: Iterable[tuple[int, int, str]]) -> list[int]:
    """Paper ids from (id, year, venue) rows, in the order a run batches them: year by year,
    the venues of a year interleaved.

    So every batch has work for every source - DOI lookups for Crossref, title lookups for
    the venues without DOIs - and none waits on one source while the others idle, while a
    batch still spans only a year's few proceedings (a table of contents each).
    """
    by_year: dict[int, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for pk, year, venue in sorted(rows):
        by_year[year][venue].append(pk)
    order: list[int] = []
    for year in sorted(by_year):
        venues = [by_year[year][venue] for venue in sorted(by_year[year])]
        order += [pk for group in zip_longest(*venues) for pk in group if pk is not None]
    return order


def run_owed(run: SyncRun) -> list[int]:
    """Papers the run still has to sync (after a crash: the ones not done yet), in batch order."""
    return batch_order(
        PaperSyncState.objects.filter(run=run, in_flight=True).values_list(
            "paper_id", "paper__year", "paper__venue"
        )
    )


def run_record(run: SyncRun, outcome: BatchOutcome) -> None:
    """Add a batch's counts to its run (row-locked: batches finish concurrently)."""
    with transaction.atomic():
        locked = SyncRun.objects.select_for_update().get(pk=run.pk)
        requests = Counter(locked.requests or {})
        requests.update(outcome.requests)
        SyncRun.objects.filter(pk=run.pk).update(
            papers_matched=F("papers_matched") + outcome.matched,
            papers_changed=F("papers_changed") + outcome.changed,
            fields_changed=F("fields_changed") + outcome.fields,
            requests=dict(requests),
            errors=((locked.errors or []) + outcome.errors)[:MAX_RUN_ERRORS],
            heartbeat_at=timezone.now(),
        )


def run_finish_if_done(run: SyncRun) -> bool:
    if PaperSyncState.objects.filter(run=run, in_flight=True).exists():
        return False
    return bool(
        SyncRun.objects.filter(pk=run.pk, status=SyncRun.Status.RUNNING).update(
            status=SyncRun.Status.FINISHED, finished_at=timezone.now()
        )
    )


def paper_ids_for_sync_all() -> list[int]:
    return batch_order(Paper.objects.values_list("pk", "year", "venue"))


# -- discovery -------------------------------------------------------------------------------


def discover_candidates(*, venue: str, year: int, run: SyncRun | None = None) -> int:
    """List the proceedings on DBLP and keep the papers the site lacks as candidates.

    Candidates wait for an editor; nothing is published or turned into a Paper here.
    """
    dblp = next((s for s in get_sources(["dblp"]) if isinstance(s, DblpSource)), None)
    if dblp is None:
        raise SourceError("discovery needs the dblp source to be configured")
    records = dblp.table_of_contents(venue, year)
    papers = list(
        Paper.objects.filter(year__in=[year - 1, year, year + 1], venue=venue).prefetch_related(
            "authors"
        )
    )
    known_keys = {p.dblp_key for p in papers if p.dblp_key}
    known_dois = {p.doi for p in papers if p.doi}
    created = 0
    for record in records:
        key = record.ids.get("dblp_key", "")
        if not key or key in known_keys or (record.doi and record.doi in known_dois):
            continue
        if any(best_match(paper_query(p), [record]) for p in papers):
            continue
        _, was_created = DiscoveryCandidate.objects.get_or_create(
            dblp_key=key,
            defaults={
                "venue": venue,
                "year": year,
                "title": record.title[:500],
                "authors": [a.name for a in record.authors],
                "doi": record.doi,
                "url": f"https://doi.org/{record.doi}" if record.doi else "",
                "run": run,
            },
        )
        created += was_created
    if run is not None:
        SyncRun.objects.filter(pk=run.pk).update(
            requests={"dblp": dblp.requests_made},
            papers_matched=len(records),
            papers_changed=created,
            status=SyncRun.Status.FINISHED,
            finished_at=timezone.now(),
        )
    return created
