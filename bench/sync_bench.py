"""`make bench`'s sync stage, also runnable alone: `python -m bench.sync_bench`.

A real Celery worker (prefork, with deploy/'s pool size) on a Redis broker (see below)
syncs every paper of the scenario against the stand-in upstream (tests.standin), 20 ms away,
which answers in each API's schema from records built for the same synthetic papers
(bench/upstream_catalog.py), so matching and merging run and write for real; the default
per-source limits are shared through Redis as in production. Figures: requests per paper
against the fewest the APIs allow (bench/sync_needs.py), the busiest one-second window per
source against its limit, wall time against the ceiling the limits imply, and the worker's peak
memory (main process and pool children) against its idle footprint. Then 1% of the papers'
update notices are switched upstream (issued or withdrawn) and a second sync runs: its requests
against the first's (notices come in the answers a sync asks for anyway), and whether the
notices stored are exactly upstream's.

Alone, it builds only the papers it needs (no pages) in a throwaway SQLite database under
var/bench/. The worker's Redis database (its queue, the rate-limit pacing and the shared
listings live there) is REDIS_URL, else BENCH_REDIS_URL (default: db 14 of the local Redis).
"""

from __future__ import annotations

import json
import os
import re
import sys
import time
import uuid
from pathlib import Path

from .report import Figure

ROOT = Path(__file__).resolve().parent.parent


def _deployed(variable: str) -> str:
    """A worker setting as production sets it (deploy/.env.example)."""
    text = (ROOT / "deploy" / ".env.example").read_text()
    return re.search(rf"^{variable}=(\S+)", text, re.MULTILINE).group(1)


def _deployed_concurrency() -> int:
    """The pool size production starts workers with."""
    return int(_deployed("WORKER_CONCURRENCY"))


LATENCY_S = 0.020
CONCURRENCY = int(os.environ.get("BENCH_SYNC_CONCURRENCY") or _deployed_concurrency())
PAPERS = int(os.environ.get("BENCH_SYNC_PAPERS", "5000"))  # when run alone
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/14"


def bench_redis_url(env: dict[str, str]) -> str:
    """The Redis database the benchmark's worker uses."""
    return (
        env.get("REDIS_URL")
        or os.environ.get("REDIS_URL")
        or os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS_URL)
    )


def _redis_problem(redis_url: str) -> str:
    """Why the worker cannot use `redis_url`, or "" when Redis answers."""
    import redis

    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=3).ping()
    except redis.RedisError as error:
        return f"not measured: Redis at {redis_url} does not answer ({error})"
    return ""


RUN_TIMEOUT_S = 1800
SOURCE_URL_ENV = {
    "crossref": "CROSSREF_API_URL",
    "openalex": "OPENALEX_API_URL",
    "dblp": "DBLP_API_URL",
    "semanticscholar": "SEMANTIC_SCHOLAR_API_URL",
}
SYNTHETIC_TITLE = re.compile(r"^\[Synthetic\] System (\d{5}):")


def scenario_papers() -> list:
    """The synthetic papers in the database, as `synthetic_paper` describes them."""
    from cms.papers.models import Paper

    from .synthetic_papers import synthetic_paper

    numbers, others = [], 0
    for title in Paper.objects.values_list("title", flat=True).iterator():
        match = SYNTHETIC_TITLE.match(title)
        if match:
            numbers.append(int(match.group(1)))
        else:
            others += 1
    if others:
        raise RuntimeError(f"{others} papers are not the scenario's: the stand-in lacks them")
    return [synthetic_paper(number) for number in sorted(numbers)]


def _forget_politeness_state(redis_url: str) -> None:
    """No open breaker, Retry-After pause or reserved slot left in Redis by an earlier run."""
    import redis

    client = redis.Redis.from_url(redis_url)
    for pattern in ("sync:breaker:*", "sync:pause:*", "sync:pace:*"):
        for key in client.scan_iter(pattern):
            client.delete(key)


def _run_to_finish(producer, queue: str, worker) -> object:
    from sync.models import SyncRun

    known = set(SyncRun.objects.values_list("pk", flat=True))
    producer.send_task("sync.tasks.sync_all", kwargs={"trigger": "benchmark"}, queue=queue)
    deadline = time.monotonic() + RUN_TIMEOUT_S
    while time.monotonic() < deadline:
        run = SyncRun.objects.filter(kind=SyncRun.Kind.ALL).exclude(pk__in=known).first()
        if run is not None and run.status != SyncRun.Status.RUNNING:
            return run
        if not worker.alive():
            raise RuntimeError("the worker died during the sync")
        time.sleep(0.05)
    raise RuntimeError(f"the sync did not finish within {RUN_TIMEOUT_S} s")


def measure(work_dir: Path, env: dict[str, str]) -> list[Figure]:
    from celery import Celery
    from django.conf import settings

    from cms.papers.models import Paper
    from sync.conf import rate_limits
    from tests.standin.server import busiest_window

    from .sync_needs import ceiling_seconds, per_period, requests_needed
    from .upstream_catalog import expected_notices, synthetic_catalog
    from .upstream_process import UpstreamProcess
    from .worker import MemoryPeak, Worker

    redis_url = bench_redis_url(env)
    problem = _redis_problem(redis_url)
    if problem:
        return [
            Figure(
                name="sync of the scenario's papers", unit="", value=None, holds=False, note=problem
            )
        ]
    papers = scenario_papers()
    count = len(papers)
    catalog = synthetic_catalog(papers)
    limits = rate_limits()
    needed = requests_needed(papers, catalog)
    ceiling = ceiling_seconds(needed, limits, LATENCY_S)
    _forget_politeness_state(redis_url)
    queue = f"bench-sync-{uuid.uuid4().hex[:8]}"
    producer = Celery("bench-sync", broker=redis_url)
    numbers = [paper.number for paper in papers]
    with UpstreamProcess(numbers, latency=LATENCY_S) as upstream:
        worker_env = {
            **env,
            "REDIS_URL": redis_url,
            "MALLOC_ARENA_MAX": _deployed("MALLOC_ARENA_MAX"),
            "SYNC_RATE_LIMITS": settings.SYNC_RATE_LIMITS,
            **{variable: upstream.url(source) for source, variable in SOURCE_URL_ENV.items()},
        }
        log_path = work_dir / "sync-worker.log"
        with Worker(worker_env, log_path, queue=queue, concurrency=CONCURRENCY) as worker:
            time.sleep(2)  # let the pool children settle before taking the idle footprint
            idle = worker.memory()
            peak = MemoryPeak(worker)
            peak.start()
            started = time.monotonic()
            try:
                run = _run_to_finish(producer, queue, worker)
            finally:
                wall = time.monotonic() - started
                peak.stop()
            final = worker.memory()
            arrivals = upstream.arrivals()
            notices_first = _notices_match(expected_notices(papers))
            flipped = upstream.flip_notices()
            started = time.monotonic()
            second_run = _run_to_finish(producer, queue, worker)
            second_wall = time.monotonic() - started
            notices_second = _notices_match(expected_notices(papers, flipped_once=True))
            both = upstream.arrivals()
    (work_dir / "sync-arrivals.json").write_text(json.dumps(arrivals))
    second = {source: len(both[source]) - len(arrivals[source]) for source in SOURCE_URL_ENV}
    made = {source: len(arrivals[source]) for source in SOURCE_URL_ENV}
    busiest = {source: busiest_window(arrivals[source]) for source in SOURCE_URL_ENV}
    producer.close()
    synced = Paper.objects.exclude(openalex_id="").count()
    total = sum(made.values())
    fewest = sum(needed.values())
    run_note = (
        f"run {run.status}: {run.papers_matched}/{run.papers_total} matched, "
        f"{run.papers_changed} changed, {run.fields_changed} fields, "
        f"{len(run.errors or [])} errors; {synced} papers now carry an OpenAlex id"
    )
    figures = [
        Figure(
            name=f"sync: requests per paper ({count} papers, all sources)",
            unit="req/paper",
            value=total / max(count, 1),
            baseline=fewest / max(count, 1),
            baseline_name="fewest the APIs allow",
            ratio=total / fewest if fewest else None,
            target="<= 1.5",
            holds=run.status == "finished" and total / max(count, 1) <= 1.5,
            note="; ".join(
                f"{s} {made[s]} ({made[s] / max(count, 1):.4f}/paper, fewest {needed[s]})"
                for s in SOURCE_URL_ENV
            )
            + f". {run_note}",
        )
    ]
    for source in SOURCE_URL_ENV:
        amount, period = per_period(limits[source])
        allowed = amount if period == 1.0 else amount / period
        figures.append(
            Figure(
                name=f"sync: busiest one-second window, {source}",
                unit="req",
                value=busiest[source],
                baseline=allowed,
                baseline_name=f"limit {limits[source]}",
                ratio=busiest[source] / allowed if allowed else None,
                target="<= its limit",
                holds=busiest[source] <= allowed,
                note=f"{made[source]} requests",
            )
        )
    slowest = max(
        (s for s in needed if needed[s] and s in limits),
        key=lambda s: ceiling_seconds({s: needed[s]}, limits, LATENCY_S),
    )
    figures.append(
        Figure(
            name="sync: wall time",
            unit="s",
            value=wall,
            baseline=ceiling,
            baseline_name=f"ceiling: {needed[slowest]} {slowest} requests at {limits[slowest]}",
            ratio=wall / ceiling if ceiling else None,
            target="<= 1.2x ceiling",
            holds=run.status == "finished" and bool(ceiling) and wall <= 1.2 * ceiling,
            note=f"from sending sync_all to the run finished; {run_note}",
        )
    )
    first_total, second_total = total, sum(second.values())
    figures.append(
        Figure(
            name="sync: second/first requests (1% of notices flipped)",
            unit="x",
            value=second_total / first_total if first_total else None,
            baseline=first_total,
            baseline_name="requests of the first sync",
            target="<= 2.0",
            holds=second_run.status == "finished"
            and bool(first_total)
            and second_total <= 2 * first_total
            and notices_first[0]
            and notices_second[0],
            note=f"{second_total} requests ("
            + ", ".join(f"{s} {second[s]}" for s in SOURCE_URL_ENV)
            + f") in {second_wall:.1f} s after switching {flipped} papers' notices; notices "
            f"stored {notices_first[1]} then {notices_second[1]}",
        )
    )
    per_process = ", ".join(
        f"{pid}: {p['hwm_mb']:.0f}" for pid, p in sorted(final.processes.items())
    )
    figures.append(
        Figure(
            name=f"sync: worker peak RSS (main + {CONCURRENCY} prefork children)",
            unit="MB",
            value=peak.rss_mb,
            baseline=idle.rss_mb,
            baseline_name="the same worker idle",
            ratio=peak.rss_mb / idle.rss_mb if idle.rss_mb else None,
            target="< 300 MB",
            holds=peak.rss_mb < 300,
            note=f"summed over the processes, {peak.samples} samples; pages shared after the "
            f"fork count once per process. Peak PSS (shared pages split): {peak.pss_mb:.0f} MB "
            f"(idle {idle.pss_mb:.0f}); per-process VmHWM (MB) {per_process}",
        )
    )
    return figures


def _notices_match(expected: set[tuple[str, str, str]]) -> tuple[bool, str]:
    """Whether the notices stored are exactly `expected`, and a note saying how many."""
    from cms.papers.models import PaperNotice

    stored = set(PaperNotice.objects.values_list("paper__title", "update_type", "source"))
    if stored == expected:
        return True, f"{len(stored)} (as upstream)"
    missing, extra = len(expected - stored), len(stored - expected)
    return False, f"{len(stored)} ({missing} missing, {extra} extra)"


def main() -> None:
    """The sync stage alone, on a throwaway database of just the papers: SQLite, or with
    BENCH_SYNC_BACKEND=postgresql one created on DATABASE_URL's server (and dropped)."""
    from .databases import throwaway_postgres

    stamp = time.strftime("sync-%Y%m%d-%H%M%S")
    work_dir = ROOT / "var" / "bench" / stamp
    work_dir.mkdir(parents=True, exist_ok=True)
    if os.environ.get("BENCH_SYNC_BACKEND", "sqlite") == "postgresql":
        with throwaway_postgres(os.environ["DATABASE_URL"], "bench_sync_") as url:
            _alone(work_dir, url, f"PostgreSQL ({url.rsplit('/', 1)[1]})")
    else:
        _alone(work_dir, f"sqlite:///{work_dir / 'sync.sqlite3'}", "SQLite")


def _alone(work_dir: Path, database_url: str, label: str) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "BENCH_DATABASE_URL": database_url,
            "VAR_DIR": str(work_dir / "var"),
            "PYTHONPATH": str(ROOT),
        }
    )
    import django

    django.setup()
    from django.db import connections

    from .backend import migrate_from_template
    from .report import table
    from .scenario import create_papers

    migrate_from_template(ROOT / "var" / "bench" / "templates")
    started = time.perf_counter()
    created = create_papers(range(PAPERS))
    print(f"{created} papers in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    figures = measure(work_dir, dict(os.environ))
    connections.close_all()
    (work_dir / "results.json").write_text(
        json.dumps({"figures": [vars(f) for f in figures]}, ensure_ascii=False, indent=2)
    )
    print(table(f"sync ({label})", [vars(f) for f in figures]))
    print(f"\nfigures in {work_dir / 'results.json'}", file=sys.stderr)


if __name__ == "__main__":
    main()
