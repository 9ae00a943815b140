"""Time the seed-style import alone: `python -m bench.import_bench [--topics N] [--postgres]`.

`make bench` times the same import inside a 15-minute run; this measures only that stage, in a
throwaway database (a temporary SQLite file, or with `--postgres` a `wt_import_bench_*` database
on the server of DATABASE_URL that is dropped afterwards), and reports seconds and queries per
digest, the statements by kind and table, and optionally a cProfile of the run.

Each topic holds 100 bilingual digests (bench/scenario.py); `--topics 10` is the 1,000 of the
benchmark target. `--again` also times a second, idempotent run with `--update`.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path

from .databases import throwaway_postgres

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "var" / "bench" / "templates"
_TABLE_AFTER = {
    "SELECT": re.compile(r'\bFROM\s+"?(\w+)"?', re.IGNORECASE),
    "INSERT": re.compile(r'\bINTO\s+"?(\w+)"?', re.IGNORECASE),
    "UPDATE": re.compile(r'^\s*UPDATE\s+"?(\w+)"?', re.IGNORECASE),
    "DELETE": re.compile(r'\bFROM\s+"?(\w+)"?', re.IGNORECASE),
}


def statement_kind(sql: str) -> str:
    """A statement's verb and first table, e.g. `SELECT wagtailcore_page`, or just `SAVEPOINT`."""
    verb = sql.split(None, 1)[0].upper() if sql.strip() else "?"
    pattern = _TABLE_AFTER.get(verb)
    match = pattern.search(sql) if pattern else None
    return f"{verb} {match.group(1)}" if match else verb


class QueryCounter:
    """Counts the statements sent to the database, by kind and first table named."""

    def __init__(self) -> None:
        self.by_kind: Counter[str] = Counter()

    def __call__(self, execute, sql, params, many, context):
        self.by_kind[statement_kind(sql)] += 1
        return execute(sql, params, many, context)

    @property
    def total(self) -> int:
        return sum(self.by_kind.values())


@contextmanager
def throwaway_database(postgres: bool, prefix: str = "wt_import_bench_"):
    """Point bench.settings at a new database; yields a work directory, removes both after.

    `prefix` names the PostgreSQL database (`<prefix><random>`), so a left-over one says whose
    it was.
    """
    work = Path(tempfile.mkdtemp(prefix="import-bench-"))
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.settings"
    os.environ["VAR_DIR"] = str(work / "var")
    try:
        if postgres:
            with _postgres_database(prefix):
                yield work
        else:
            os.environ["BENCH_DATABASE_URL"] = f"sqlite:///{work / 'bench.sqlite3'}"
            yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)


@contextmanager
def _postgres_database(prefix: str):
    """A `<prefix>*` database on the server of DATABASE_URL, dropped afterwards."""
    server = os.environ.get("DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/postgres"
    with throwaway_postgres(server, prefix=prefix) as url:
        os.environ["BENCH_DATABASE_URL"] = url
        try:
            yield
        finally:
            from django.db import connections

            connections.close_all()


def timed_import(
    seed_path: Path, *args: str, profile: Path | None = None
) -> tuple[float, QueryCounter]:
    from django.core.management import call_command
    from django.db import connection

    counter = QueryCounter()
    profiler = None
    if profile is not None:
        import cProfile

        profiler = cProfile.Profile()
    started = time.perf_counter()
    with connection.execute_wrapper(counter):
        if profiler:
            profiler.enable()
        call_command("import_digests", str(seed_path), *args, verbosity=0)
        if profiler:
            profiler.disable()
    seconds = time.perf_counter() - started
    if profiler:
        profiler.dump_stats(profile)
    return seconds, counter


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=1, help="topics of 100 digests (default 1)")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL database")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the first run here")
    parser.add_argument("--again", action="store_true", help="also time an --update re-run")
    parser.add_argument("--top", type=int, default=15, help="statement kinds to list")
    options = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    with throwaway_database(options.postgres) as work:
        import django

        django.setup()
        from django.db import connection

        from . import scenario
        from .backend import migrate_from_template

        started = time.perf_counter()
        migrate_from_template(TEMPLATES)
        print(f"{connection.vendor}: migrated in {time.perf_counter() - started:.1f} s")
        seed = scenario.write_seed(work / "seed.json", range(options.topics))
        digests = options.topics * scenario.DIGESTS_PER_TOPIC
        runs = [("import", ())] + ([("re-run --update", ("--update",))] if options.again else [])
        for label, args in runs:
            profile = options.profile if label == "import" else None
            seconds, counter = timed_import(seed, *args, profile=profile)
            print(
                f"{connection.vendor} {label} of {digests} bilingual digests: {seconds:.1f} s "
                f"({seconds / digests * 1000:.1f} ms/digest), {counter.total} queries "
                f"({counter.total / digests:.1f}/digest)"
            )
            for kind, count in counter.by_kind.most_common(options.top):
                print(f"  {count:>8} {count / digests:>7.1f}/digest  {kind}")
        connection.close()


if __name__ == "__main__":
    main()
