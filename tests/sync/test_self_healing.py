"""A sync heals itself: real workers killed with SIGKILL, a real Redis restarted mid-sync.

Each test runs worker and beat subprocesses (tests/workers.py) on a redis-server of its own
(restarted at will, nothing persisted, as a crashed Redis), against the stand-in upstream, with
leases of a few seconds. Nobody acts after a failure: the database says what is owed and beat
hands it out again. Each ends by syncing the same papers in-process without interruption, to
compare the paper data and count the upstream requests of an uninterrupted sync.
"""

from __future__ import annotations

import time

import pytest
from celery import Celery

from cms.papers.models import Paper
from sync import selectors, tasks
from sync.models import PaperChange, PaperSyncState, SyncRun
from sync.politeness import reset_breakers, reset_pacing, reset_pauses
from sync.standin import SOURCES, Upstream, pointed_at
from tests.seed_snapshot import restore_database
from tests.workers import Workers, wait_for

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


def uninterrupted(upstream: Upstream, snapshot: str, settings) -> tuple[dict, int]:
    """The same sync without interruption, in-process from the seed: its paper data and the
    upstream requests it made."""
    restore_database(snapshot)
    settings.SYNC_SOURCES = pointed_at(upstream, settings.SYNC_SOURCES)
    settings.SYNC_BATCH_SIZE = int(HEALING["SYNC_BATCH_SIZE"])
    reset_pacing(), reset_breakers(), reset_pauses()
    upstream.slow = {}
    before = len(upstream.log)
    assert tasks.sync_all.apply().get().startswith("started run")
    assert the_run().status == SyncRun.Status.FINISHED
    return paper_data(), len(upstream.log) - before


def assert_totals_are_the_work_done(run: SyncRun) -> dict[str, int]:
    """The run's counts are what it wrote; its requests per source, for the caller to check."""
    changes = PaperChange.objects.filter(run=run)
    assert run.fields_changed == changes.count() > 0
    assert run.papers_changed == changes.values("paper").distinct().count()
    assert run.error_count == len(run.errors) == 0
    assert not PaperSyncState.objects.filter(in_flight=True).exists()
    assert PaperSyncState.objects.filter(run=run).count() == Paper.objects.count()
    return run.requests


def upstream_counts(upstream: Upstream) -> dict[str, int]:
    return {source: len(upstream.requests_to(source)) for source in SOURCES}


def test_three_kills_then_a_restart_and_the_sync_finishes_on_its_own(healing, settings):
    pool, producer, upstream, _redis, snapshot = healing
    pool.start_beat(**HEALING)
    worker = pool.start(**HEALING)
    producer.send_task("sync.tasks.sync_all", queue=pool.queue)
    wait_for(the_run, 60, "the run to start")
    for kill in range(3):
        wanted = done() + 3
        wait_for(lambda: done() >= wanted, 120, f"progress before kill {kill + 1}")  # noqa: B023
        pool.kill(worker)
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
    made = upstream_counts(upstream)
    counted = assert_totals_are_the_work_done(run)
    # Requests are counted as chunks commit and while a batch works: a kill loses at most
    # the few made since its batch last counted.
    assert all(counted.get(source, 0) <= made[source] for source in SOURCES), (counted, made)
    healed = paper_data()
    interrupted_requests = sum(made.values())
    pool.stop_all()

    expected, requests = uninterrupted(upstream, snapshot, settings)
    assert healed == expected
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
    made = upstream_counts(upstream)
    counted = assert_totals_are_the_work_done(run)
    assert counted == {source: n for source, n in made.items() if n}, (counted, made)
    healed = paper_data()
    interrupted_requests = sum(made.values())
    pool.stop_all()

    expected, requests = uninterrupted(upstream, snapshot, settings)
    assert healed == expected
    ratio = interrupted_requests / requests
    print(
        f"healed in {healed_in:.1f} s; requests {interrupted_requests} vs {requests}: {ratio:.2f}x"
    )
    assert ratio <= 1.3
