"""What a run owes is known from the database: leases, handing out again, runs nobody works on."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from cms.papers.models import Paper
from sync import owed, runs, tasks
from sync.models import PaperSyncState, SyncRun

pytestmark = pytest.mark.django_db


def start_all() -> SyncRun:
    run = runs.run_start(
        kind=SyncRun.Kind.ALL,
        trigger="test",
        paper_ids=list(Paper.objects.values_list("pk", flat=True)),
    )
    assert run is not None
    return run


def test_a_paper_leased_by_a_live_worker_is_not_claimed_or_handed_out_again(settings):
    settings.SYNC_BATCH_SIZE = 10
    run = start_all()
    ids = list(Paper.objects.order_by("pk").values_list("pk", flat=True))
    mine = owed.claim(run=run, paper_ids=ids[:5], holder="worker-a")
    assert mine == ids[:5]
    assert owed.claim(run=run, paper_ids=ids[:8], holder="worker-b") == ids[5:8]

    sent: list[list[int]] = []
    handed = owed.hand_out(run, lambda run_id, batch, token: sent.append(batch))
    assert handed == len(ids) - 8 and sorted(pk for batch in sent for pk in batch) == ids[8:]
    assert all(len(batch) <= 10 for batch in sent)
    assert owed.hand_out(run, lambda *args: sent.append(args)) == 0  # queued: not sent twice


def test_a_dead_workers_papers_are_handed_out_once_its_lease_runs_out(settings):
    run = start_all()
    ids = list(Paper.objects.order_by("pk").values_list("pk", flat=True))
    owed.claim(run=run, paper_ids=ids, holder="killed-worker")
    sent: list[tuple] = []
    assert owed.hand_out(run, lambda *args: sent.append(args)) == 0
    PaperSyncState.objects.filter(leased_by="killed-worker").update(
        lease_until=timezone.now() - timedelta(seconds=1)
    )
    assert owed.hand_out(run, lambda *args: sent.append(args)) == len(ids)
    _run_id, batch, token = sent[0]
    # The batch sent claims under its token; a stale message (another token) gets nothing.
    assert owed.claim(run=run, paper_ids=batch, holder="other", token="queued:stale") == []
    assert owed.claim(run=run, paper_ids=batch, holder="new-worker", token=token) == batch


def test_a_run_nobody_works_on_blocks_a_new_one_only_until_it_is_stale(settings):
    settings.SYNC_STALE_RUN_AFTER = 300
    dead = start_all()
    assert tasks.sync_all.apply().get() == "already-running"  # alive: refused, rightly
    SyncRun.objects.filter(pk=dead.pk).update(heartbeat_at=timezone.now() - timedelta(seconds=301))

    assert runs.abandon_stale_runs() == 1
    dead.refresh_from_db()
    assert dead.status == SyncRun.Status.FAILED and dead.finished_at is not None
    assert dead.error_count == 1
    assert "No worker worked on this run for 5 minutes" in dead.errors[0]["message"]
    new = start_all()
    assert PaperSyncState.objects.filter(run=new, in_flight=True).count() == Paper.objects.count()


def test_a_discovery_whose_worker_was_killed_reads_failed_once_past_its_time_limit(settings):
    """A discovery renews no heartbeat, and a worker killed mid-discovery (or by the task's hard
    time limit) runs no handler: its run read Running for ever, and the redelivered task made
    a second one beside it. Past the task's hard time limit nothing alive runs it, so beat's
    next round fails it; a discovery still within the limit is left alone."""
    settings.SYNC_TASK_TIME_LIMIT = 660

    def discovery(started_seconds_ago: int) -> SyncRun:
        run = runs.run_start(
            kind=SyncRun.Kind.DISCOVER, trigger="NSDI 2025", paper_ids=[], source_names=["dblp"]
        )
        started = timezone.now() - timedelta(seconds=started_seconds_ago)
        SyncRun.objects.filter(pk=run.pk).update(started_at=started, heartbeat_at=started)
        return run

    killed, working = discovery(661), discovery(400)
    tasks.sync_owed.apply(throw=True)

    killed.refresh_from_db()
    working.refresh_from_db()
    assert killed.status == SyncRun.Status.FAILED and killed.finished_at is not None
    assert "stopped before it ended" in killed.errors[0]["message"]
    assert working.status == SyncRun.Status.RUNNING


def test_sync_owed_ends_a_run_whose_last_chunk_was_written_by_a_worker_that_then_died():
    run = start_all()
    PaperSyncState.objects.filter(run=run).update(in_flight=False)  # all written, never ended

    assert tasks.sync_owed.apply().get() == "handed out 0, ended 1"
    run.refresh_from_db()
    assert run.status == SyncRun.Status.FINISHED
