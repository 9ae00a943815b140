"""Where an API request's time goes, in process: `python -m bench.request_profile [URL ...]`.

`make bench` measures throughput through gunicorn; this answers the next question, what a
request spends its time on, on the same scenario (5,000 digests per language) in a throwaway
database (SQLite, or with `--postgres` a `wt_request_profile_*` database on the server of
DATABASE_URL, dropped afterwards). For each URL it prints the median and p90 of the whole
request through Django's test client (middleware included, no HTTP server), the statements it
sends, the median time spent inside the database driver (Django's execute_wrapper) and the rest:
building and compiling queries, turning rows into models, serializing, rendering.

The default URLs run on `/bench/uncached/` (the API without its response cache):
- the listing the benchmark's uncached figure loads, in both languages;
- the same listing with `limit=0`: the count and everything a typed listing does before it
  reads a single page (its fixed cost);
- `papers/?limit=0`: the API stack with next to nothing to read (the framework's own cost).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from .import_bench import ROOT, throwaway_database

UNCACHED = "/bench/uncached/"
DEFAULT_URLS = [
    UNCACHED + "pages/?type=digests.DigestPage&fields=*&locale=en&limit=20",
    UNCACHED + "pages/?type=digests.DigestPage&fields=*&locale=zh-hant&limit=20",
    UNCACHED + "pages/?type=digests.DigestPage&fields=*&locale=en&limit=0",
    UNCACHED + "papers/?limit=0",
]
WARM_REQUESTS = 20  # per-process caches: content types, site root paths, serializer classes


class DatabaseTimer:
    """An execute_wrapper that adds up the statements and the time spent running them."""

    def __init__(self) -> None:
        self.statements = 0
        self.seconds = 0.0

    def __call__(self, execute, sql, params, many, context):
        started = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.seconds += time.perf_counter() - started
            self.statements += 1


def profile_url(client, url: str, requests: int) -> dict[str, float]:
    """Median and p90 of `requests` requests to `url`, with their database share."""
    from django.db import connection

    for _ in range(WARM_REQUESTS):
        response = client.get(url)
    if response.status_code != 200:
        raise SystemExit(f"{url} answered {response.status_code}: {response.content[:300]!r}")
    totals, in_database, statements = [], [], 0
    for _ in range(requests):
        timer = DatabaseTimer()
        started = time.perf_counter()
        with connection.execute_wrapper(timer):
            client.get(url)
        totals.append(time.perf_counter() - started)
        in_database.append(timer.seconds)
        statements = timer.statements
    totals.sort()
    median, database = statistics.median(totals), statistics.median(in_database)
    return {
        "median_ms": median * 1000,
        "p90_ms": totals[int(len(totals) * 0.9)] * 1000,
        "statements": statements,
        "database_ms": database * 1000,
        "rest_ms": (median - database) * 1000,
        "bytes": len(response.content),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "urls",
        nargs="*",
        help=f"paths to request (default: {len(DEFAULT_URLS)}); {{detail}} stands for the id of "
        "the page the benchmark's detail figures request",
    )
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL database")
    parser.add_argument("--requests", type=int, default=300, help="timed requests per URL")
    parser.add_argument("--cprofile", type=Path, help="write a cProfile of the first URL here")
    options = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    with throwaway_database(options.postgres, prefix="wt_request_profile_") as work:
        import django

        django.setup()
        from django.db import connection
        from django.test import Client

        from .backend import Run

        started = time.perf_counter()
        # Run keeps its templates two levels up from its work directory: var/bench/templates.
        run_dir = ROOT / "var" / "bench" / "request-profile" / connection.vendor
        run_dir.mkdir(parents=True, exist_ok=True)
        Run(run_dir).build_scenario()
        print(f"{connection.vendor}: scenario built in {time.perf_counter() - started:.0f} s")
        (work / "var" / "static").mkdir(parents=True, exist_ok=True)
        client = Client()
        detail = Run(run_dir).detail_id()
        urls = [url.replace("{detail}", str(detail)) for url in options.urls or DEFAULT_URLS]
        print(f"{'median':>8} {'p90':>8} {'queries':>7} {'in db':>8} {'rest':>8} {'bytes':>7}  url")
        for url in urls:
            figures = profile_url(client, url, options.requests)
            print(
                f"{figures['median_ms']:6.2f}ms {figures['p90_ms']:6.2f}ms "
                f"{figures['statements']:>7} {figures['database_ms']:6.2f}ms "
                f"{figures['rest_ms']:6.2f}ms {figures['bytes']:>7}  {url}"
            )
        if options.cprofile:
            import cProfile

            profiler = cProfile.Profile()
            profiler.enable()
            for _ in range(options.requests):
                client.get(urls[0])
            profiler.disable()
            profiler.dump_stats(options.cprofile)
            print(f"cProfile of {options.requests} x {urls[0]}: read it with")
            print(f"  python -m pstats {options.cprofile}")
        connection.close()


if __name__ == "__main__":
    main()
