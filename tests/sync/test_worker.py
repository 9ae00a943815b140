"""A real Celery worker on the real Redis broker, against the local upstream.

The worker is a subprocess sharing the test database (tests/support/workers.py), so these tests are
transactional: they start from the committed seed and the database is flushed after each.
`.ci/run` starts Redis; if it does not answer these tests fail rather than skip.
"""

from __future__ import annotations

import time

import pytest
from celery import Celery
from django.core.cache import cache
from wagtail.models import Locale

from cms.digests.models import DigestPage
from cms.papers.models import Paper
from sync.models import PaperChange, PaperSyncState, SyncRun
from tests.standin import Canned, Upstream
from tests.support.workers import wait_for

from .recorded import FIXTURES, recorded_catalog

pytestmark = pytest.mark.integration

EXPECTED_AUTHORS = {"ByteScale": 4, "Falcon": 3, "Crux": 3, "Swing": 3, "Acme": 2}


@pytest.fixture
def workers(committed_seed, broker, worker_pool):
    """Workers (started by each test) whose sources point at the local upstream."""
    producer, _queue = broker
    with Upstream(recorded_catalog()) as upstream:
        worker_pool.upstream = upstream
        try:
            yield worker_pool, producer
        finally:
            worker_pool.stop_all()


def send(producer: Celery, queue: str, name: str, *args):
    return producer.send_task(name, args=args, queue=queue)


def finished_run() -> SyncRun | None:
    return SyncRun.objects.filter(kind=SyncRun.Kind.ALL, status=SyncRun.Status.FINISHED).first()


def assert_fully_synced(run: SyncRun) -> None:
    assert not PaperSyncState.objects.filter(in_flight=True).exists()
    assert PaperSyncState.objects.filter(run=run).count() == Paper.objects.count()
    for short_name, count in EXPECTED_AUTHORS.items():
        paper = DigestPage.objects.get(locale__language_code="en", short_name=short_name).paper
        orders = list(paper.authors.values_list("sort_order", flat=True))
        assert len(orders) == count and sorted(orders) == list(range(count)), short_name
    # One authors diff per matched paper: a paper synced twice would have hit the unique
    # (run, paper, field) constraint and failed its batch.
    assert PaperChange.objects.filter(run=run, field="authors").count() == len(EXPECTED_AUTHORS)


def test_worker_syncs_papers_politely_and_the_api_shows_them(workers, client):
    pool, producer = workers
    upstream = pool.upstream
    upstream.fail_next(
        "dblp",
        Canned(429, (FIXTURES / "errors/429.html").read_bytes(), "text/html", {"Retry-After": "1"}),
    )
    upstream.fail_next("crossref", Canned(503, b"<html>busy</html>", "text/html"))
    pool.start(
        concurrency=2, SYNC_RATE_LIMITS="dblp=2/s,crossref=5/s,openalex=10/s,semanticscholar=20/s"
    )
    result = send(producer, pool.queue, "sync.tasks.sync_all")
    assert result.get(timeout=60).startswith("started run")
    run = wait_for(finished_run, 120, "the run to finish")
    assert_fully_synced(run)

    dblp = sorted(entry.at for entry in upstream.requests_to("dblp"))
    told_to_wait = next(e.at for e in upstream.requests_to("dblp") if e.fault == 429)
    # Times are arrival times at the upstream, a little after each process took its slot, and
    # that delay varies with load: hence the slack below the one-second window.
    # Retry-After honoured by both worker processes: nothing more until the second is over.
    assert not [at for at in dblp if told_to_wait + 0.2 < at < told_to_wait + 0.95], dblp
    for i in range(len(dblp) - 2):  # two processes, one shared limit of 2/s
        assert dblp[i + 2] - dblp[i] >= 0.8, dblp
    assert len(upstream.requests_to("crossref")) >= 2  # the 503 was retried

    # The worker bumped the API cache version in its own (per-process, test) cache; in
    # production both share Redis. Start this process's cache afresh to read what is stored.
    cache.clear()
    for language in ("en", "zh-hant"):
        en = DigestPage.objects.get(locale__language_code="en", short_name="ByteScale")
        page = en.get_translation(Locale.objects.get(language_code=language))
        authors = client.get(f"/api/v2/pages/{page.pk}/").json()["paper"]["authors"]
        assert [a["name"] for a in authors] == ["Hao Ge", "Junda Feng", "Qi Huang", "Xin Liu"]


def test_killed_worker_leaves_no_partial_rows_and_the_run_completes(workers):
    pool, producer = workers
    pool.upstream.slow["semanticscholar"] = 0.15  # slow answers, so the kill lands mid-run
    first = pool.start(concurrency=1)
    send(producer, pool.queue, "sync.tasks.sync_all")
    run = wait_for(lambda: SyncRun.objects.filter(kind=SyncRun.Kind.ALL).first(), 60, "a run")
    wait_for(
        lambda: PaperSyncState.objects.filter(run=run, in_flight=False).exists(),
        90,
        "the first batch",
    )
    pool.kill(first)
    assert PaperSyncState.objects.filter(run=run, in_flight=True).exists(), "killed too late"
    assert SyncRun.objects.get(pk=run.pk).status == SyncRun.Status.RUNNING
    for paper in Paper.objects.prefetch_related("authors"):  # each paper all or nothing
        count = len(paper.authors.all())
        assert count in (0, EXPECTED_AUTHORS.get(paper.digests.first().short_name, 0))

    time.sleep(3.5)  # past the visibility timeout, so the new worker takes the unacked batch
    pool.start(concurrency=1)
    finished = wait_for(finished_run, 120, "the run to finish after the restart")
    assert finished.pk == run.pk
    assert_fully_synced(finished)


def test_overlapping_sync_all_calls_make_one_run(workers):
    pool, producer = workers
    pool.start(concurrency=2)
    results = [send(producer, pool.queue, "sync.tasks.sync_all") for _ in range(2)]
    statuses = sorted(result.get(timeout=60) for result in results)
    assert statuses[0] == "already-running" and statuses[1].startswith("started run"), statuses
    wait_for(finished_run, 120, "the run to finish")
    assert SyncRun.objects.filter(kind=SyncRun.Kind.ALL).count() == 1
