"""Thin Celery tasks: they take ids, call services, and return a short status string.

Reliability comes from settings (acks_late, reject_on_worker_lost, prefetch 1) and from the
services: a run owns its papers through `PaperSyncState.in_flight`, so a task redelivered after
a worker died only syncs what is still owed, and the SyncRun unique constraint keeps `sync_all`
single.
"""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from cms.papers.models import Paper

from . import discovery, runs, selectors, services
from .conf import sync_setting
from .models import PaperSyncState, SyncRun
from .sources.base import SourceError

TASK_OPTIONS = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "soft_time_limit": sync_setting("SYNC_TASK_SOFT_TIME_LIMIT"),
    "time_limit": sync_setting("SYNC_TASK_TIME_LIMIT"),
}


def _batches(paper_ids: list[int]) -> list[list[int]]:
    size = sync_setting("SYNC_BATCH_SIZE")
    return [paper_ids[i : i + size] for i in range(0, len(paper_ids), size)]


@shared_task(name="sync.tasks.sync_all", bind=True, **TASK_OPTIONS)
def sync_all(self, trigger: str = "schedule") -> str:
    """Start a run over every paper and fan it out in batches; one such run at a time."""
    task_id = self.request.id or ""
    run = None
    if task_id:  # a redelivery of the task that started the running run resumes it
        run = SyncRun.objects.filter(
            kind=SyncRun.Kind.ALL, status=SyncRun.Status.RUNNING, task_id=task_id
        ).first()
    if run is None:
        run = runs.run_start(
            kind=SyncRun.Kind.ALL,
            trigger=trigger,
            paper_ids=selectors.paper_ids_for_sync_all(),
            task_id=task_id,
        )
        if run is None:
            return "already-running"
    owed = runs.run_owed(run)
    for batch in _batches(owed):
        sync_batch.delay(run.pk, batch)
    if not owed:
        runs.run_finish_if_done(run)
    return f"started run {run.pk}: {len(owed)} papers"


@shared_task(name="sync.tasks.sync_batch", **TASK_OPTIONS)
def sync_batch(run_id: int, paper_ids: list[int]) -> str:
    """Sync the papers of one batch that its run still owes."""
    run = SyncRun.objects.filter(pk=run_id, status=SyncRun.Status.RUNNING).first()
    if run is None:
        return "run-gone"
    try:
        outcome = services.sync_batch(
            paper_ids=paper_ids, run=run, source_names=run.sources or None
        )
    except SoftTimeLimitExceeded:
        # Papers written so far are done; the rest are still in flight and go round again.
        sync_batch.delay(run_id, paper_ids)
        return "time-limit"
    runs.run_record(run, outcome)
    runs.run_finish_if_done(run)
    return f"ok: {outcome.changed} changed, {outcome.skipped} skipped, {len(outcome.errors)} errors"


@shared_task(name="sync.tasks.sync_paper", **TASK_OPTIONS)
def sync_paper(paper_id: int, trigger: str = "task") -> str:
    """Sync one paper now (the admin's "Sync now")."""
    if not Paper.objects.filter(pk=paper_id).exists():
        return "no-such-paper"
    if PaperSyncState.objects.filter(
        paper_id=paper_id, in_flight=True, run__status=SyncRun.Status.RUNNING
    ).exists():
        return "already-in-a-run"
    run = runs.run_start(kind=SyncRun.Kind.PAPERS, trigger=trigger, paper_ids=[paper_id])
    outcome = services.sync_batch(paper_ids=[paper_id], run=run)
    runs.run_record(run, outcome)
    runs.run_finish_if_done(run)
    return "error" if outcome.errors else ("changed" if outcome.changed else "unchanged")


@shared_task(name="sync.tasks.sync_due", **TASK_OPTIONS)
def sync_due(limit: int = 100) -> str:
    """Retry papers whose `not_before` has passed (rows, not sleeping tasks)."""
    from django.utils import timezone

    due = list(
        PaperSyncState.objects.filter(
            in_flight=False,
            failed_attempts__gt=0,
            not_before__lte=timezone.now(),
        ).values_list("paper_id", flat=True)[:limit]
    )
    for paper_id in due:
        sync_paper.delay(paper_id, trigger="retry")
    return f"queued {len(due)}"


@shared_task(name="sync.tasks.discover", **TASK_OPTIONS)
def discover(venue: str, year: int) -> str:
    """Offer the proceedings' papers the site lacks to editors as candidates."""
    run = runs.run_start(
        kind=SyncRun.Kind.DISCOVER, trigger=f"{venue} {year}", paper_ids=[], source_names=["dblp"]
    )
    try:
        created = discovery.discover_candidates(venue=venue, year=year, run=run)
    except SourceError as error:
        SyncRun.objects.filter(pk=run.pk).update(
            status=SyncRun.Status.FAILED, errors=[{"source": "dblp", "message": str(error)}]
        )
        return "error"
    return f"ok: {created} new candidates"
