"""Time the import alone: `python -m bench.import_bench [--topics N] [--postgres]`.

`make bench` times the 1,000-digest import inside a longer run (bench/backend.py, with
`import_figure()` below); this measures only the import, in a throwaway database (a temporary
SQLite file, or with `--postgres` a `wt_import_bench_*` database on the server of DATABASE_URL
that is dropped afterwards). It imports the shipped seed (53 bilingual digests, as `make run`
does) into an empty site, then N topics of 100 synthetic bilingual digests (bench/scenario.py;
`--topics 10` is the 1,000 of the target), and prints each figure against its target, with
queries per digest, the statements by kind and table, and optionally a cProfile of the run.
The progress bar shows on a terminal. `--again` also times a second, idempotent run with
`--update`.
"""

from __future__ import annotations

import argparse
import io
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
from .report import Figure

ROOT = Path(__file__).resolve().parent.parent
TEMPLATES = ROOT / "var" / "bench" / "templates"
# Issue 22's targets for an import through Wagtail's and wagtail-localize's public calls.
SEED_TARGET_SECONDS = 30.0  # the shipped seed, as `make run` imports it
THOUSAND_TARGET_SECONDS = 600.0  # 1,000 bilingual digests
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


class CPUClock:
    """CPU seconds spent on the import: this process's, plus the database server process's
    serving its connection when that server runs on this machine (PostgreSQL; SQLite runs in
    process). On a machine whose CPU is shared, wall time measures the neighbours as well;
    CPU time is about what the same import would take alone."""

    def __init__(self) -> None:
        from django.db import connection

        self.server_stat: Path | None = None
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                stat = Path(f"/proc/{cursor.fetchone()[0]}/stat")
            self.server_stat = stat if stat.exists() else None
        self.started = self._now()

    def _server(self) -> float:
        if self.server_stat is None:
            return 0.0
        fields = self.server_stat.read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime

    def _now(self) -> tuple[float, float]:
        return time.process_time(), self._server()

    def seconds(self) -> tuple[float, float]:
        """(this process, database server) CPU seconds since the clock started."""
        now = self._now()
        return now[0] - self.started[0], now[1] - self.started[1]


class QueryCounter:
    """Counts the statements sent to the database, by kind and first table named."""

    def __init__(self) -> None:
        self.by_kind: Counter[str] = Counter()
        self.cpu: tuple[float, float] = (0.0, 0.0)  # set by timed_import

    def __call__(self, execute, sql, params, many, context):
        self.by_kind[statement_kind(sql)] += 1
        return execute(sql, params, many, context)

    @property
    def total(self) -> int:
        return sum(self.by_kind.values())


def _cpu_text(cpu: tuple[float, float]) -> str:
    client, server = cpu
    return f"{client + server:.1f} s" + (
        f" ({client:.1f} s Python, {server:.1f} s database server)" if server else ""
    )


def target_seconds(digests: int, *, seed: bool) -> float:
    """The import's time limit: the seed's, or 1,000 digests' held pro rata to `digests`."""
    return SEED_TARGET_SECONDS if seed else THOUSAND_TARGET_SECONDS * digests / 1000


def import_figure(seconds: float, queries: QueryCounter, digests: int, *, seed: bool) -> Figure:
    """The import's figure against its target; another size than 1,000 is held to its share."""
    limit = target_seconds(digests, seed=seed)
    if seed:
        name = f"import of the shipped seed ({digests} bilingual digests)"
        target = f"<= {SEED_TARGET_SECONDS:.0f} s"
    else:
        name = f"import of {digests:,} bilingual digests"
        target = f"<= {THOUSAND_TARGET_SECONDS:.0f} s for 1,000" + (
            f" ({limit:.0f} s pro rata)" if digests != 1000 else ""
        )
    return Figure(
        name=name,
        unit="s",
        value=seconds,
        target=target,
        holds=seconds <= limit,
        note="import_digests through Wagtail's and wagtail-localize's public calls; "
        f"{seconds / digests * 1000:.0f} ms and {queries.total / digests:.0f} queries per digest; "
        f"CPU {_cpu_text(queries.cpu)} (the wall time includes other work on a shared machine)",
    )


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
    """Run import_digests on `seed_path`; its seconds and statements. The progress bar goes to
    stderr when that is a terminal, as it would for an operator."""
    from django.core.management import call_command
    from django.db import connection

    connection.ensure_connection()
    counter = QueryCounter()
    clock = CPUClock()
    profiler = None
    if profile is not None:
        import cProfile

        profiler = cProfile.Profile()
    started = time.perf_counter()
    with connection.execute_wrapper(counter):
        if profiler:
            profiler.enable()
        call_command("import_digests", str(seed_path), *args, stdout=io.StringIO())
        if profiler:
            profiler.disable()
    seconds = time.perf_counter() - started
    counter.cpu = clock.seconds()
    if profiler:
        profiler.dump_stats(profile)
    return seconds, counter


def _print(label: str, seconds: float, counter: QueryCounter, digests: int, top: int) -> None:
    from django.db import connection

    print(
        f"{connection.vendor} {label} of {digests} bilingual digests: {seconds:.1f} s "
        f"({seconds / digests * 1000:.1f} ms/digest), CPU {_cpu_text(counter.cpu)}, "
        f"{counter.total} queries ({counter.total / digests:.1f}/digest)"
    )
    for kind, count in counter.by_kind.most_common(top):
        print(f"  {count:>8} {count / digests:>7.1f}/digest  {kind}")


def _verdict(figure: Figure, cpu: tuple[float, float], limit: float) -> None:
    holds = "holds" if figure.holds else "MISSED"
    alone = "holds" if sum(cpu) <= limit else "MISSED"
    print(
        f"target {figure.target}: {figure.value:.1f} s, {holds} ({figure.name}); "
        f"on CPU time ({sum(cpu):.1f} s, about the import alone) {alone}"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--topics", type=int, default=1, help="topics of 100 digests (default 1)")
    parser.add_argument("--postgres", action="store_true", help="a throwaway PostgreSQL database")
    parser.add_argument("--profile", type=Path, help="write a cProfile of the synthetic import")
    parser.add_argument("--again", action="store_true", help="also time an --update re-run")
    parser.add_argument("--top", type=int, default=15, help="statement kinds to list")
    options = parser.parse_args(argv)

    sys.path.insert(0, str(ROOT))
    with throwaway_database(options.postgres) as work:
        import django

        django.setup()
        from django.db import connection

        from cms.seed.parse import DEFAULT_SEED_PATH, load_seed

        from . import scenario
        from .backend import migrate_from_template

        started = time.perf_counter()
        migrate_from_template(TEMPLATES)
        print(f"{connection.vendor}: migrated in {time.perf_counter() - started:.1f} s")
        print("(the machine's CPU is shared: compare figures from the same run)")
        figures = []  # (figure, CPU seconds, limit)

        digests = load_seed(DEFAULT_SEED_PATH).digest_count
        seconds, counter = timed_import(DEFAULT_SEED_PATH)
        _print("shipped seed import", seconds, counter, digests, options.top)
        figures.append(
            (
                import_figure(seconds, counter, digests, seed=True),
                counter.cpu,
                target_seconds(digests, seed=True),
            )
        )

        seed = scenario.write_seed(work / "seed.json", range(options.topics))
        digests = options.topics * scenario.DIGESTS_PER_TOPIC
        runs = [("import", ())] + ([("re-run --update", ("--update",))] if options.again else [])
        for label, args in runs:
            profile = options.profile if label == "import" else None
            seconds, counter = timed_import(seed, *args, profile=profile)
            _print(label, seconds, counter, digests, options.top)
            if label == "import":
                figures.append(
                    (
                        import_figure(seconds, counter, digests, seed=False),
                        counter.cpu,
                        target_seconds(digests, seed=False),
                    )
                )
        for figure, cpu, limit in figures:
            _verdict(figure, cpu, limit)
        connection.close()


if __name__ == "__main__":
    main()
