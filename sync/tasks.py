"""Thin Celery tasks: they take ids, call services, and return a short status string.

What is owed lives in the database, not in the broker: a run owns its papers through
`PaperSyncState.in_flight`, a batch leases the papers it works on and renews the lease while it
lives (sync/owed.py), and `sync_owed`, run by beat every `SYNC_RECOVER_INTERVAL`, hands papers
whose lease ran out to the workers again. So a worker killed mid-batch, or a broker that lost
its queue, delays a run by about a lease, and a redelivered message only syncs what is still
owed. acks_late with reject_on_worker_lost keeps the broker's copy as a second chance; tasks
that meet a Redis error are retried, and if even that fails the rows still say what is owed.
"""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded
from django.utils import timezone
from redis.exceptions import RedisError

from cms.papers.models import Paper

from . import discovery, owed, runs, services
from .conf import sync_setting
from .errors import SourceError
from .models import PaperSyncState, SyncRun

TASK_OPTIONS = {
    "acks_late": True,
    "reject_on_worker_lost": True,
    "soft_time_limit": sync_setting("SYNC_TASK_SOFT_TIME_LIMIT"),
    "time_limit": sync_setting("SYNC_TASK_TIME_LIMIT"),
    "autoretry_for": (RedisError,),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "max_retries": 8,
}


@shared_task(name="sync.tasks.sync_all", bind=True, **TASK_OPTIONS)
def sync_all(self, trigger: str = "schedule") -> str:
    """Start a run over every paper and hand it out in batches; one such run at a time."""
    task_id = self.request.id or ""
    run = None
    if task_id:  # a redelivery of the task that started the running run resumes it
        run = SyncRun.objects.filter(
            kind=SyncRun.Kind.ALL, status=SyncRun.Status.RUNNING, task_id=task_id
        ).first()
    if run is None:
        run = runs.run_start_for_all(trigger=trigger, task_id=task_id)
        if run is None:
            return "already-running"
    sent = owed.hand_out(run, sync_batch.delay)
    runs.run_finish_if_done(run)
    return f"started run {run.pk}: {sent} papers"


@shared_task(name="sync.tasks.sync_batch", **TASK_OPTIONS)
def sync_batch(run_id: int, paper_ids: list[int], token: str = "") -> str:
    """Sync the papers of one batch that its run still owes and no live worker holds."""
    run = SyncRun.objects.filter(pk=run_id, status=SyncRun.Status.RUNNING).first()
    if run is None:
        return "run-gone"
    try:
        outcome = services.sync_batch(
            paper_ids=paper_ids, run=run, source_names=run.sources or None, token=token
        )
    except SoftTimeLimitExceeded:
        # Papers written so far are done; the rest were released and go round again.
        owed.hand_out(run, sync_batch.delay)
        return "time-limit"
    runs.run_finish_if_done(run)
    return f"ok: {outcome.changed} changed, {outcome.skipped} skipped, {len(outcome.errors)} errors"


@shared_task(name="sync.tasks.sync_owed", **TASK_OPTIONS)
def sync_owed() -> str:
    """Hand out again what running runs owe and nobody alive holds; end runs that are done."""
    runs.abandon_stale_runs()
    sent = ended = 0
    for run in SyncRun.objects.filter(status=SyncRun.Status.RUNNING).exclude(
        kind=SyncRun.Kind.DISCOVER
    ):
        if runs.run_finish_if_done(run):
            ended += 1
        else:
            sent += owed.hand_out(run, sync_batch.delay)
    return f"handed out {sent}, ended {ended}"


@shared_task(name="sync.tasks.sync_paper", **TASK_OPTIONS)
def sync_paper(paper_id: int, trigger: str = "task") -> str:
    """Sync one paper now, unless a run already owes it (`sync_due`'s retries)."""
    if not Paper.objects.filter(pk=paper_id).exists():
        return "no-such-paper"
    run, started = runs.run_start_for_paper(paper_id=paper_id, trigger=trigger)
    if not started:
        return "already-in-a-run"
    outcome = services.sync_batch(paper_ids=[paper_id], run=run)
    runs.run_finish_if_done(run)
    return "error" if outcome.errors else ("changed" if outcome.changed else "unchanged")


@shared_task(name="sync.tasks.sync_due", **TASK_OPTIONS)
def sync_due(limit: int = 100) -> str:
    """Retry papers whose `not_before` has passed (rows, not sleeping tasks).

    They go in one run made here and handed out as a run's batches are, so the next round
    finds them owed while they wait for a busy worker, rather than queuing them again. A paper
    owed by a run no worker finished (failed, sync/runs.py) is retried too.
    """
    runs.abandon_stale_runs()
    due = list(
        PaperSyncState.objects.filter(failed_attempts__gt=0, not_before__lte=timezone.now())
        .exclude(in_flight=True, run__status=SyncRun.Status.RUNNING)
        .values_list("paper_id", flat=True)[:limit]
    )
    # A Sync now pressed since the read above owns its paper: the one check leaves it to it.
    run, busy = runs.run_start_for_papers(paper_ids=due, trigger="retry") if due else (None, {})
    if run is None:
        return "queued 0"
    owed.hand_out(run, sync_batch.delay)
    return f"queued {len(due) - len(busy)}"


@shared_task(name="sync.tasks.discover", **TASK_OPTIONS)
def discover(venue: str, year: int) -> str:
    """Offer the proceedings' papers the site lacks to editors as candidates."""
    run = runs.run_start(
        kind=SyncRun.Kind.DISCOVER, trigger=f"{venue} {year}", paper_ids=[], source_names=["dblp"]
    )
    try:
        created = discovery.discover_candidates(venue=venue, year=year, run=run)
    except SourceError as error:
        runs.run_fail(run.pk, str(error), source="dblp")
        return "error"
    except SoftTimeLimitExceeded:
        runs.run_fail(run.pk, "The discovery stopped before it ended (its time limit).")
        raise
    except Exception as error:  # nothing else ends a discovery's run: it would read Running
        runs.run_fail(run.pk, f"The discovery failed ({type(error).__name__}).")
        raise
    return f"ok: {created} new candidates"
