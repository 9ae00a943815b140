"""A sync run's bookkeeping: which papers it owns and still owes, its counts, its end.

Runs and sync states are the worker's own tables; paper content is written only by
sync/services.py. Counts are added with F() in the transaction that writes the papers they
count (`count_chunk`), so a run's totals are the work committed, whatever was killed; requests
are counted one by one as they go out (`count_request`), committed before each is sent.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from cms.papers.signals import sync_finished

from .conf import sync_setting
from .models import PaperChange, PaperSyncState, SourceRequests, SyncError, SyncRun
from .selectors import paper_ids_for_sync_all

MAX_RUN_ERRORS = 1000  # errors kept on a run for the admin; the count is complete regardless


def listing_scope(run: SyncRun) -> str:
    """What a run's batches share listings under: unique even across restored databases."""
    return f"run-{run.pk}-{run.started_at.timestamp():.6f}"


def _duration(seconds: float) -> str:
    return f"{seconds / 60:.0f} minutes" if seconds >= 120 else f"{seconds:.0f} seconds"


def abandon_stale_runs() -> int:
    """Fail running runs without a sign of life for `SYNC_STALE_RUN_AFTER` seconds.

    A run's batches renew its heartbeat while they work, and beat hands its owed papers to
    any live worker, so such a run has had no worker for minutes. Its owed papers stay owed:
    the next run of them takes them over. A discovery is one task that renews nothing: it is
    dead once it has run longer than the task's hard time limit (`SYNC_TASK_TIME_LIMIT`),
    past which no worker runs it (a killed worker runs no handler to end it).
    """
    now = timezone.now()
    stale_before = now - timedelta(seconds=settings.SYNC_STALE_RUN_AFTER)
    killed_before = now - timedelta(seconds=sync_setting("SYNC_TASK_TIME_LIMIT"))
    discovery = Q(kind=SyncRun.Kind.DISCOVER)
    stale = dict(
        SyncRun.objects.filter(status=SyncRun.Status.RUNNING)
        .filter(
            (~discovery & Q(heartbeat_at__lt=stale_before))
            | (discovery & Q(started_at__lt=killed_before))
        )
        .values_list("pk", "kind")
    )
    for pk, kind in stale.items():
        with transaction.atomic():
            left = PaperSyncState.objects.filter(run_id=pk, in_flight=True).count()
            message = (
                f"No worker worked on this run for "
                f"{_duration(settings.SYNC_STALE_RUN_AFTER)}; "
                f"{left} papers were left unsynced and go to the next run."
            )
            if kind == SyncRun.Kind.DISCOVER:
                message = (
                    "The discovery stopped before it ended (its worker was stopped or "
                    "reached the time limit); run it again."
                )
            run_fail(pk, message)
    return len(stale)


def run_start(
    *,
    kind: str,
    trigger: str,
    paper_ids: list[int],
    source_names: list[str] | None = None,
    task_id: str = "",
) -> SyncRun | None:
    """Create a run owning those of `paper_ids` no other running run owes (a Sync now waiting
    for the worker keeps its paper); None if it is `all` and another `all` run is running.

    The partial unique constraint on SyncRun is the lock: it holds across processes and
    databases, and survives a broker restart. A run without a sign of life for
    `SYNC_STALE_RUN_AFTER` is failed first, so it blocks a new one no longer than that.
    """
    abandon_stale_runs()
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
            owned = (
                PaperSyncState.objects.filter(paper_id__in=paper_ids)
                .exclude(in_flight=True, run__status=SyncRun.Status.RUNNING)
                .update(run=run, in_flight=True, lease_until=None, leased_by="")
            )
            if owned != run.papers_total:
                SyncRun.objects.filter(pk=run.pk).update(papers_total=owned)
                run.papers_total = owned
    except IntegrityError:
        return None
    return run


def run_start_for_all(*, trigger: str, task_id: str = "") -> SyncRun | None:
    """A run of every paper (but those a running run owes), made at once; None if another run
    of all papers is running. The daily sync and the admin's "Sync all papers" both start here."""
    return run_start(
        kind=SyncRun.Kind.ALL,
        trigger=trigger,
        paper_ids=paper_ids_for_sync_all(),
        task_id=task_id,
    )


def running_sync_all() -> SyncRun | None:
    """The run of all papers that is running, if one is (at most one can be)."""
    return SyncRun.objects.filter(kind=SyncRun.Kind.ALL, status=SyncRun.Status.RUNNING).first()


def papers_done(run: SyncRun) -> int:
    """How many of its papers `run` has done (synced, or given up on with an error)."""
    left = PaperSyncState.objects.filter(run=run, in_flight=True).count()
    return max(0, run.papers_total - left)


def run_start_for_papers(
    *, paper_ids: list[int], trigger: str, source_names: list[str] | None = None
) -> tuple[SyncRun | None, dict[int, SyncRun]]:
    """A run of those of `paper_ids` no running run owes, made at once (None if every one is
    owed), and the running runs that owe the others, by paper.

    The one test of "is this paper being synced", asked by Sync now, `sync_due` and the
    command alike: a run is made when the sync is asked for, not when a worker takes it, so a
    second ask while the first waits in the queue finds it. The papers' sync states are locked
    meanwhile, so two asks at the same moment make one run (PostgreSQL; SQLite serializes the
    writes)."""
    abandon_stale_runs()  # a run whose process died must not hold its papers for long
    PaperSyncState.objects.bulk_create(
        (PaperSyncState(paper_id=pk) for pk in paper_ids), ignore_conflicts=True
    )
    with transaction.atomic():
        states = (
            PaperSyncState.objects.select_for_update()
            .filter(paper_id__in=paper_ids)
            .order_by("paper_id")
            .values_list("paper_id", "run_id", "in_flight")
        )
        owing = {paper_id: run_id for paper_id, run_id, in_flight in states if in_flight}
        running = SyncRun.objects.filter(status=SyncRun.Status.RUNNING).in_bulk(set(owing.values()))
        busy = {pk: running[run_id] for pk, run_id in owing.items() if run_id in running}
        free = [pk for pk in paper_ids if pk not in busy]
        run = None
        if free:
            run = run_start(
                kind=SyncRun.Kind.PAPERS,
                trigger=trigger,
                paper_ids=free,
                source_names=source_names,
            )
    return run, busy


def run_start_for_paper(*, paper_id: int, trigger: str) -> tuple[SyncRun, bool]:
    """A run of one paper, made at once, and True; or the running run that already owes the
    paper, and False (`run_start_for_papers`, the one check)."""
    run, busy = run_start_for_papers(paper_ids=[paper_id], trigger=trigger)
    return (busy[paper_id], False) if run is None else (run, True)


def run_stop(run: SyncRun, message: str) -> None:
    """End `run` before it is done (an operator's Ctrl-C): Failed with `message`, owing nothing,
    so no worker takes up what it left; the next run of those papers syncs them."""
    with transaction.atomic():
        PaperSyncState.objects.filter(run=run, in_flight=True).update(
            in_flight=False, lease_until=None, leased_by=""
        )
        run_fail(run.pk, message)


def run_fail(run_id: int, message: str, *, source: str = "worker") -> bool:
    """End a running run as Failed with `message` as its error; False if it had ended already
    (a second worker or beat got there first). The one way a run is failed with an error."""
    failed = SyncRun.objects.filter(pk=run_id, status=SyncRun.Status.RUNNING).update(
        status=SyncRun.Status.FAILED,
        finished_at=timezone.now(),
        error_count=F("error_count") + 1,
    )
    if failed:
        SyncError.objects.create(run_id=run_id, source=source, message=message)
    return bool(failed)


def count_chunk(
    run: SyncRun,
    *,
    matched: int,
    changed: int,
    fields: int,
    errors: Iterable[SyncError],
) -> None:
    """Add what a chunk did to its run. Call inside the chunk's transaction."""
    errors = list(errors)
    SyncRun.objects.filter(pk=run.pk).update(
        papers_matched=F("papers_matched") + matched,
        papers_changed=F("papers_changed") + changed,
        fields_changed=F("fields_changed") + fields,
        error_count=F("error_count") + len(errors),
        heartbeat_at=timezone.now(),
    )
    kept = SyncError.objects.filter(run=run).count()
    SyncError.objects.bulk_create(errors[: max(0, MAX_RUN_ERRORS - kept)])


def count_requests(run_id: int, requests: dict[str, int]) -> None:
    """Add requests made to each source (F() increments: batches count concurrently)."""
    for source, count in sorted(requests.items()):
        if not count:
            continue
        row = SourceRequests.objects.filter(run_id=run_id, source=source)
        if not row.update(requests=F("requests") + count):
            SourceRequests.objects.get_or_create(run_id=run_id, source=source)
            row.update(requests=F("requests") + count)


def count_request(run_id: int, source: str) -> None:
    """Count one request to `source`, before it is sent: called outside any transaction (in
    the source's thread, autocommit), it is committed when it returns, so a worker killed at
    any moment after has its request counted; one UPDATE of one row per request."""
    count_requests(run_id, {source: 1})


def run_finish_if_done(run: SyncRun) -> bool:
    """End the run once it owes nothing: failed if errors were all it got, else finished."""
    if PaperSyncState.objects.filter(run=run, in_flight=True).exists():
        return False
    done = SyncRun.objects.filter(pk=run.pk, status=SyncRun.Status.RUNNING)
    failed = done.filter(papers_matched=0, error_count__gt=0).update(
        status=SyncRun.Status.FAILED, finished_at=timezone.now()
    )
    ended = bool(failed or done.update(status=SyncRun.Status.FINISHED, finished_at=timezone.now()))
    if ended:
        announce_end(SyncRun.objects.get(pk=run.pk))
    return ended


def announce_end(run: SyncRun) -> None:
    """Tell the CMS (webhooks) that `run` ended, with its summary and the papers it changed.

    The summary goes to subscribers outside: its trigger names how the run started ("admin"),
    never who pressed Sync now ("admin:<username>", which the staff-only run list shows)."""
    summary = {
        "id": run.pk,
        "kind": run.kind,
        "status": run.status,
        "trigger": run.trigger.partition(":")[0],
        "dry_run": run.dry_run,
        "started_at": run.started_at.isoformat(),
        "finished_at": run.finished_at.isoformat() if run.finished_at else None,
        "papers_total": run.papers_total,
        "papers_matched": run.papers_matched,
        "papers_changed": run.papers_changed,
        "fields_changed": run.fields_changed,
        "errors": run.error_count,
    }
    paper_ids = sorted(set(PaperChange.objects.filter(run=run).values_list("paper_id", flat=True)))
    sync_finished.send(sender=SyncRun, summary=summary, paper_ids=paper_ids)
