"""The sync's write side: the only code that writes Paper rows, and the run bookkeeping.

A batch fetches from every source first (no transaction held while waiting on the network),
then writes each paper in its own short transaction together with its sync state, so a worker
killed mid-batch leaves each paper either fully synced or untouched, and a redelivered batch
skips the papers already done.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from cms.papers.models import Paper, PaperAffiliation, PaperAuthor, PaperLink
from cms.papers.serializers import PAPER_PREFETCH

from .conf import sync_setting
from .matching import best_match
from .merge import ID_FIELDS, FieldChange, plan_changes
from .models import DiscoveryCandidate, PaperChange, PaperSyncState, SyncRun
from .sources import get_sources
from .sources.base import PaperQuery, PaperRecord, SourceError
from .sources.dblp import DblpSource
from .text import has_dangerous_markup

Progress = Callable[[int], None]


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


def _learn(query: PaperQuery, record: PaperRecord) -> PaperQuery:
    """Carry ids a source found to the sources after it (a DBLP DOI lets Crossref batch)."""
    ids = {**record.ids, **query.ids}
    doi = query.doi or ("" if record.is_preprint else record.doi)
    return dataclasses.replace(query, doi=doi, ids=ids)


def fetch_records(
    papers: list[Paper], source_names: list[str] | None = None
) -> tuple[dict[int, dict[str, PaperRecord]], dict[int, dict[str, str]], set[int], Counter]:
    """Ask every source about `papers`: records and errors per paper and source."""
    queries = {paper.pk: paper_query(paper) for paper in papers}
    records: dict[int, dict[str, PaperRecord]] = {pk: {} for pk in queries}
    errors: dict[int, dict[str, str]] = {pk: {} for pk in queries}
    retry_later: set[int] = set()
    requests: Counter = Counter()
    for source in get_sources(source_names):
        try:
            result = source.fetch(list(queries.values()))
        except SourceError as error:  # a source that fails as a whole fails only itself
            for pk in queries:
                errors[pk][source.name] = str(error)
            requests[source.name] += source.requests_made
            continue
        requests[source.name] += source.requests_made
        for pk, record in result.records.items():
            records[pk][source.name] = record
            queries[pk] = _learn(queries[pk], record)
        for pk, message in result.errors.items():
            errors[pk][source.name] = message
        retry_later |= result.retry_later
    return records, errors, retry_later, requests


# -- writing ---------------------------------------------------------------------------------


def _unsafe_records(records: dict[str, PaperRecord], errors: dict[str, str]) -> None:
    """Drop records whose title or names carried script-like markup, as errors of that source."""
    for source, record in list(records.items()):
        if has_dangerous_markup(record.raw_title):
            errors[source] = f"{source}: rejected a record with script-like markup"
            del records[source]


def apply_changes(
    *, paper: Paper, changes: list[FieldChange], run: SyncRun | None, fetched_at: str
) -> None:
    """Write `changes` to `paper` with provenance. Call inside a transaction."""
    provenance = dict(paper.provenance or {})
    paper_fields = []
    for change in changes:
        provenance[change.field] = {"source": change.source, "fetched_at": fetched_at}
        if change.field in ("title", "abstract", *ID_FIELDS):
            setattr(paper, change.field, change.new)
            paper_fields.append(change.field)
        elif change.field == "authors":
            PaperAuthor.objects.filter(paper=paper).delete()
            PaperAuthor.objects.bulk_create(
                PaperAuthor(
                    paper=paper,
                    sort_order=order,
                    name=a["name"][:200],
                    given=a["given"][:200],
                    family=a["family"][:200],
                    orcid=a["orcid"][:19],
                    affiliations=a["affiliations"],
                )
                for order, a in enumerate(change.new)
            )
        elif change.field == "affiliations":
            PaperAffiliation.objects.filter(paper=paper).delete()
            PaperAffiliation.objects.bulk_create(
                PaperAffiliation(paper=paper, sort_order=order, name=name[:300])
                for order, name in enumerate(change.new)
            )
        elif change.field == "links":
            PaperLink.objects.filter(paper=paper).delete()
            PaperLink.objects.bulk_create(
                PaperLink(
                    paper=paper, sort_order=order, label=link["label"][:100], url=link["url"][:1000]
                )
                for order, link in enumerate(change.new)
            )
    paper.provenance = provenance
    paper.save(update_fields=[*paper_fields, "provenance", "updated_at"])
    if run is not None:
        PaperChange.objects.bulk_create(
            PaperChange(run=run, paper=paper, field=c.field, source=c.source, old=c.old, new=c.new)
            for c in changes
            if c.old != c.new
        )


def _doi_taken(paper: Paper, changes: list[FieldChange]) -> str:
    doi = next((c.new for c in changes if c.field == "doi"), "")
    if doi and Paper.objects.filter(doi=doi).exclude(pk=paper.pk).exists():
        return doi
    return ""


def sync_batch(
    *,
    paper_ids: Iterable[int],
    run: SyncRun | None,
    source_names: list[str] | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
) -> BatchOutcome:
    """Sync some papers: fetch from every source, then write each paper in its own transaction.

    With a run, only papers the run still owes (`in_flight`) are synced, so a redelivered batch
    never syncs a paper twice.
    """
    outcome = BatchOutcome()
    ids = list(paper_ids)
    if run is not None:
        ids = list(
            PaperSyncState.objects.filter(paper_id__in=ids, run=run, in_flight=True).values_list(
                "paper_id", flat=True
            )
        )
    papers = list(Paper.objects.filter(pk__in=ids).prefetch_related(*PAPER_PREFETCH))
    if not papers:
        return outcome
    records, errors, retry_later, outcome.requests = fetch_records(papers, source_names)
    fetched_at = timezone.now().isoformat(timespec="seconds")
    for paper in papers:
        paper_records, paper_errors = records[paper.pk], errors[paper.pk]
        _unsafe_records(paper_records, paper_errors)
        if paper_records:
            outcome.matched += 1
        changes = plan_changes(
            paper_snapshot(paper),
            paper_records,
            locked=set(paper.locked_fields or []),
            unavailable=set(paper_errors),
        )
        taken = _doi_taken(paper, changes)
        if taken:
            changes = [c for c in changes if c.field != "doi"]
            paper_errors["doi"] = f"DOI {taken} already belongs to another paper"
        outcome.plans[paper.pk] = changes
        for source, message in paper_errors.items():
            outcome.errors.append({"paper": paper.pk, "source": source, "message": message})
        written = dry_run or _write_paper(
            paper, changes, run, fetched_at, paper_errors, paper.pk in retry_later
        )
        if written:
            outcome.fields += len(changes)
            outcome.changed += bool(changes)
        else:
            outcome.skipped += 1
        if progress:
            progress(1)
    return outcome


def _write_paper(paper, changes, run, fetched_at, paper_errors, retry_later) -> bool:
    """One paper's content and state in one transaction; False if another worker did it."""
    with transaction.atomic():
        state, _ = PaperSyncState.objects.select_for_update().get_or_create(paper=paper)
        if run is not None and not (state.run_id == run.pk and state.in_flight):
            return False
        if changes:
            apply_changes(paper=paper, changes=changes, run=run, fetched_at=fetched_at)
        now = timezone.now()
        state.in_flight = False
        state.run = run
        state.last_synced_at = now
        if paper_errors:
            state.failed_attempts += 1
            state.last_error = "; ".join(f"{s}: {m}" for s, m in paper_errors.items())[:2000]
            delay = sync_setting("SYNC_RETRY_BASE_DELAY") * 2 ** (state.failed_attempts - 1)
            state.not_before = now + timedelta(seconds=min(delay, 7 * 24 * 3600))
            if not retry_later:
                state.not_before = None  # a permanent fault: waiting will not fix it
        else:
            state.failed_attempts, state.last_error, state.not_before = 0, "", None
        state.save()
    return True


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


def run_owed(run: SyncRun) -> list[int]:
    """Papers the run still has to sync (after a crash: the ones not done yet)."""
    return list(
        PaperSyncState.objects.filter(run=run, in_flight=True)
        .order_by("paper__venue", "paper__year", "paper_id")
        .values_list("paper_id", flat=True)
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
            errors=(locked.errors or []) + outcome.errors[:500],
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
    return list(Paper.objects.order_by("venue", "year", "pk").values_list("pk", flat=True))


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
