"""A sync heals itself: real workers killed with SIGKILL, a real Redis restarted mid-sync.

Each test runs worker and beat subprocesses (tests/support/workers.py) on a redis-server of its own
(restarted at will, nothing persisted, as a crashed Redis), against the stand-in upstream, with
leases of a few seconds. Nobody acts after a failure: the database says what is owed and beat
hands it out again. Each ends by syncing the same papers in-process without interruption, to
compare the paper data, the run's totals and the upstream requests of an uninterrupted sync.
"""

from __future__ import annotations

import os
import random
import signal
import time

import pytest
from celery import Celery

from cms.papers.models import Paper
from sync import selectors, tasks
from sync.models import PaperChange, PaperSyncState, SyncRun
from sync.politeness import reset_breakers, reset_pacing, reset_pauses
from tests.standin import SOURCES, Upstream, pointed_at
from tests.support.seed_snapshot import restore_database
from tests.support.workers import Workers, wait_for

from .recorded import recorded_catalog

pytestmark = pytest.mark.integration

HEALING = {  # seconds: how fast a sync notices a dead worker, shortened for the tests
    "SYNC_LEASE_SECONDS": "3",
    "SYNC_QUEUED_LEASE": "8",
    "SYNC_RECOVER_INTERVAL": "1",
    "SYNC_LOCK_TTL": "2",
    # Long, so that nothing relies on the broker redelivering a dead worker's message.
    "SYNC_VISIBILITY_TIMEOUT": "3600",
    "SYNC_BATCH_SIZE": "5",
    "SYNC_TEST_SHARED_CACHE": "1",
}


@pytest.fixture
def healing(committed_seed, seeded_snapshot, own_redis, tmp_path):
    """Workers and beat on the test's own Redis, against a slowed stand-in upstream."""
    with Upstream(recorded_catalog()) as upstream:
        upstream.slow = dict.fromkeys(SOURCES, 0.15)  # so a kill lands mid-sync
        pool = Workers("sync-heal", tmp_path, upstream)
        pool.redis_url = own_redis.url
        producer = Celery("heal-tests", broker=own_redis.url, set_as_current=False)
        try:
            yield pool, producer, upstream, own_redis, seeded_snapshot
        finally:
            pool.stop_all()
            producer.close()


def the_run() -> SyncRun | None:
    return SyncRun.objects.filter(kind=SyncRun.Kind.ALL).first()


def done() -> int:
    return PaperSyncState.objects.filter(run=the_run(), in_flight=False).count()


def paper_data() -> dict[int, dict]:
    """Every paper's synced fields and which source each came from (not when)."""
    return {
        paper.pk: {
            **selectors.paper_snapshot(paper),
            "from": {field: p["source"] for field, p in (paper.provenance or {}).items()},
        }
        for paper in Paper.objects.prefetch_related("authors", "affiliations", "links")
    }


def totals(run: SyncRun) -> dict[str, int]:
    """What a run says it did to the papers."""
    return {
        "matched": run.papers_matched,
        "changed": run.papers_changed,
        "fields": run.fields_changed,
        "errors": run.error_count,
    }


def uninterrupted(upstream: Upstream, snapshot: str, settings) -> tuple[dict, int, dict]:
    """The same sync without interruption, in-process from the seed: its paper data, the
    upstream requests it made and its run's totals."""
    restore_database(snapshot)
    settings.SYNC_SOURCES = pointed_at(upstream, settings.SYNC_SOURCES)
    settings.SYNC_BATCH_SIZE = int(HEALING["SYNC_BATCH_SIZE"])
    reset_pacing(), reset_breakers(), reset_pauses()
    upstream.slow = {}
    before = len(upstream.log)
    assert tasks.sync_all.apply().get().startswith("started run")
    run = the_run()
    assert run.status == SyncRun.Status.FINISHED
    assert run.requests == received(upstream, since=before)
    return paper_data(), len(upstream.log) - before, totals(run)


def assert_totals_are_the_work_done(run: SyncRun) -> dict[str, int]:
    """The run's counts are what it wrote; its requests per source, for the caller to check."""
    changes = PaperChange.objects.filter(run=run)
    assert run.fields_changed == changes.count() > 0
    assert run.papers_changed == changes.values("paper").distinct().count()
    assert run.error_count == len(run.errors) == 0
    assert not PaperSyncState.objects.filter(in_flight=True).exists()
    assert PaperSyncState.objects.filter(run=run).count() == Paper.objects.count()
    return run.requests


def received(upstream: Upstream, since: int = 0) -> dict[str, int]:
    """Requests the upstream received per source (those it received any), after the first
    `since`."""
    counts: dict[str, int] = {}
    for entry in upstream.log[since:]:
        counts[entry.source] = counts.get(entry.source, 0) + 1
    return counts


def settled(upstream: Upstream) -> None:
    """Wait until every request already written has arrived at the upstream and been logged."""
    seen = -1
    while seen != len(upstream.log):
        seen = len(upstream.log)
        time.sleep(0.2)


def kill_mid_request(pool: Workers, worker, upstream: Upstream) -> None:
    """SIGKILL the worker while the upstream answers one of its requests, and not in the one
    gap a count kept outside the upstream must leave: between counting a request and writing
    it (a few instructions wide, sync/sources/http.py), where a kill leaves a request counted
    that the upstream never received.

    The worker is frozen (SIGSTOP) and killed only if a request is being answered and the run
    counted exactly the requests that arrived; else it is thawed and tried again a moment
    later. A worker that counted requests only after sending them (or in batches) never agrees
    while one is in flight, so it would not be killed and the test would fail.
    """
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        os.killpg(worker.pid, signal.SIGSTOP)
        busy = upstream.answering
        settled(upstream)
        if busy and the_run().requests == received(upstream):
            pool.kill(worker)
            return
        os.killpg(worker.pid, signal.SIGCONT)
        time.sleep(random.uniform(0.01, 0.2))
    raise AssertionError("the worker's counted requests never matched those the upstream got")


def test_three_kills_then_a_restart_and_the_sync_finishes_on_its_own(healing, settings):
    pool, producer, upstream, _redis, snapshot = healing
    pool.start_beat(**HEALING)
    worker = pool.start(**HEALING)
    producer.send_task("sync.tasks.sync_all", queue=pool.queue)
    wait_for(the_run, 60, "the run to start")
    for kill in range(3):
        wanted = done() + 3
        wait_for(lambda: done() >= wanted, 120, f"progress before kill {kill + 1}")  # noqa: B023
        kill_mid_request(pool, worker, upstream)
        assert PaperSyncState.objects.filter(in_flight=True).exists(), "killed too late"
        assert the_run().status == SyncRun.Status.RUNNING
        if kill < 2:
            worker = pool.start(**HEALING)
    restarted = time.monotonic()
    pool.start(**HEALING)
    run = wait_for(
        lambda: (run := the_run()) and run.status != SyncRun.Status.RUNNING and run,
        180,
        "the run to end within 3 minutes of the restart",
    )
    healed_in = time.monotonic() - restarted
    assert run.status == SyncRun.Status.FINISHED, run.errors
    made = received(upstream)
    assert assert_totals_are_the_work_done(run) == made
    healed, healed_totals = paper_data(), totals(run)
    interrupted_requests = sum(made.values())
    pool.stop_all()

    expected, requests, expected_totals = uninterrupted(upstream, snapshot, settings)
    assert healed == expected
    assert healed_totals == expected_totals
    ratio = interrupted_requests / requests
    print(
        f"healed in {healed_in:.1f} s; requests {interrupted_requests} vs {requests}: {ratio:.2f}x"
    )
    assert ratio <= 1.3


def test_a_redis_restart_mid_sync_loses_no_work(healing, settings):
    pool, producer, upstream, redis_server, snapshot = healing
    pool.start_beat(**HEALING)
    pool.start(**HEALING)
    producer.send_task("sync.tasks.sync_all", queue=pool.queue)
    wait_for(lambda: done() >= 3, 120, "the first papers")
    assert PaperSyncState.objects.filter(in_flight=True).exists(), "restarted too late"
    restarted = time.monotonic()
    redis_server.restart(down_for=1.0)  # queue, results, pace and listings all gone
    run = wait_for(
        lambda: (run := the_run()) and run.status != SyncRun.Status.RUNNING and run,
        300,
        "the run to end within 5 minutes of the restart",
    )
    healed_in = time.monotonic() - restarted
    assert run.status == SyncRun.Status.FINISHED, run.errors
    made = received(upstream)
    assert assert_totals_are_the_work_done(run) == made
    healed, healed_totals = paper_data(), totals(run)
    interrupted_requests = sum(made.values())
    pool.stop_all()

    expected, requests, expected_totals = uninterrupted(upstream, snapshot, settings)
    assert healed == expected
    assert healed_totals == expected_totals
    ratio = interrupted_requests / requests
    print(
        f"healed in {healed_in:.1f} s; requests {interrupted_requests} vs {requests}: {ratio:.2f}x"
    )
    assert ratio <= 1.3
