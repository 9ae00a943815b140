"""Every measurement on one database backend: `python -m bench.backend OUT.json`.

Runs with DJANGO_SETTINGS_MODULE=bench.settings and BENCH_DATABASE_URL pointing at a throwaway
database that the caller (bench/__main__.py) created and drops afterwards.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import django

from .load import fetch, run_wrk, summary
from .report import Figure
from .server import WORKERS, Server, env_for

TOPICS = int(os.environ.get("BENCH_TOPICS", "50"))  # x 100 digests = 5,000 per language
IMPORT_TOPICS = int(os.environ.get("BENCH_IMPORT_TOPICS", "10"))  # x 100 = 1,000 imported
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "5"))
WRK_SECONDS = int(os.environ.get("BENCH_WRK_SECONDS", "3"))
LATENCY_ROUNDS = int(os.environ.get("BENCH_LATENCY_ROUNDS", "11"))
# Stock is sampled every round while its samples of a request add up to less than this.
STOCK_LATENCY_MS = 1000
MEMORY_REQUESTS = 5000

LIST = "pages/?type=digests.DigestPage&fields=*&locale={locale}&limit={limit}"
SEARCH = "pages/?type=digests.DigestPage&fields=*&locale={locale}&limit={limit}&search={term}"
OURS_CACHED = "/api/v2/"
OURS_UNCACHED = "/bench/uncached/"
STOCK = "/bench/stock/"


def log(message: str) -> None:
    print(f"  [{time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


class Run:
    def __init__(self, work_dir: Path):
        self.work_dir = work_dir
        self.figures: list[Figure] = []
        self.raw: dict[str, Any] = {}

    def guarded(self, stage, *args):
        """Run one stage; a failure is recorded as a figure instead of losing the whole run."""
        try:
            return stage(*args)
        except Exception as error:
            import traceback

            traceback.print_exc()
            self.add(
                Figure(
                    name=f"stage {stage.__name__}",
                    unit="",
                    value=None,
                    holds=False,
                    note=f"failed: {error!r}"[:500],
                )
            )
            return None

    def add(self, figure: Figure) -> None:
        self.figures.append(figure)
        log(figure.line())

    # -- scenario ------------------------------------------------------------------------------

    def build_scenario(self) -> None:

        from cms.seed.importer import refresh_planner_statistics

        from . import scenario
        from .import_bench import import_figure, timed_import

        templates = self.work_dir.parent.parent / "templates"
        # For iterating on the harness only: BENCH_REUSE_SCENARIO=1 reuses a built scenario.
        reuse = templates / f"scenario-{TOPICS}-{IMPORT_TOPICS}.sqlite3"
        reusing = os.environ.get("BENCH_REUSE_SCENARIO")
        if reusing and scenario_template(reuse, restore=True):
            log("reused a built scenario (BENCH_REUSE_SCENARIO): no import figure")
            return
        started = time.perf_counter()
        migrate_from_template(templates)
        log(f"migrated in {time.perf_counter() - started:.1f}s")

        seed_path = scenario.write_seed(self.work_dir / "import-seed.json", range(IMPORT_TOPICS))
        seconds, queries = timed_import(seed_path)
        count = IMPORT_TOPICS * scenario.DIGESTS_PER_TOPIC
        self.raw["import_queries"] = dict(queries.by_kind.most_common())
        self.add(import_figure(seconds, queries, count, seed=False))

        started = time.perf_counter()
        scenario.bulk_add_topics(list(range(IMPORT_TOPICS, TOPICS)))
        scenario.complete_papers()
        scenario.rebuild_search_index()
        # Statistics for the rows added behind the importer's back, as PostgreSQL's autovacuum
        # would gather them on a live site (the import gathers them for its own rows).
        refresh_planner_statistics()
        settle_like_autovacuum()
        log(f"bulk-added the rest of the scenario in {time.perf_counter() - started:.1f}s")
        from cms.digests.models import DigestPage

        counts = {
            lang: DigestPage.objects.live().filter(locale__language_code=lang).count()
            for lang in ("en", "zh-hant")
        }
        self.raw["digests_per_locale"] = counts
        log(f"digests per locale: {counts}")
        if reusing:
            scenario_template(reuse, restore=False)

    # -- query counts (in process) -------------------------------------------------------------

    def query_counts(self) -> None:
        """Queries per request on the views themselves (no response cache), after a write."""
        from django.db import connection
        from django.test import Client
        from django.test.utils import CaptureQueriesContext

        client = Client()

        def count(url: str) -> int:
            client.get(url)  # per-process caches: content types, site root paths
            with CaptureQueriesContext(connection) as queries:
                response = client.get(url)
            assert response.status_code == 200, (url, response.status_code, response.content[:300])
            return len(queries)

        detail_id = self.detail_id()
        counts: dict[str, dict[str, int]] = {}
        for side, prefix in (("ours", OURS_UNCACHED), ("stock", STOCK)):
            counts[side] = {}
            for locale in ("en", "zh-hant"):
                for limit in (20, 100):
                    url = prefix + LIST.format(locale=locale, limit=limit)
                    counts[side][f"list {locale} limit={limit}"] = count(url)
            counts[side]["detail"] = count(f"{prefix}pages/{detail_id}/")
        self.raw["query_counts"] = counts
        ours = [value for key, value in counts["ours"].items() if key.startswith("list")]
        stock20 = counts["stock"]["list en limit=20"]
        constant = all(
            counts["ours"][f"list {locale} limit=20"] == counts["ours"][f"list {locale} limit=100"]
            for locale in ("en", "zh-hant")
        )
        self.add(
            Figure(
                name="queries per list request (limit 20 and 100, en and zh-hant)",
                unit="queries",
                value=max(ours),
                baseline=stock20,
                baseline_name="stock, limit=20",
                ratio=max(ours) / stock20,
                target="constant in limit and <= 12",
                holds=constant and max(ours) <= 12,
                note=f"ours {counts['ours']}; stock {counts['stock']}",
            )
        )
        detail = counts["ours"]["detail"]
        self.add(
            Figure(
                name="queries per detail request",
                unit="queries",
                value=detail,
                baseline=counts["stock"]["detail"],
                baseline_name="stock",
                ratio=detail / counts["stock"]["detail"],
                target="<= 12",
                holds=detail <= 12,
            )
        )

    def detail_id(self) -> int:
        from cms.digests.models import DigestPage

        return DigestPage.objects.live().filter(locale__language_code="en").order_by("pk")[0].pk

    # -- throughput over HTTP ------------------------------------------------------------------

    def throughput(self, server: Server) -> None:
        base = server.base_url
        list20 = LIST.format(locale="en", limit=20)
        ours = fetch(base + OURS_CACHED + list20)
        assert ours.status == 200, ours.body[:300]
        uncached = fetch(base + OURS_UNCACHED + list20)
        assert uncached.body == ours.body, "the uncached mount must serve the same bytes"
        floor_dir = Path(os.environ["BENCH_FLOOR_DIR"])
        (floor_dir / "list20.json").write_bytes(ours.body)
        assert fetch(f"{base}/bench/floor/list20/").body == ours.body
        etag = ours.headers.get("etag")
        sides = {
            "floor": (f"{base}/bench/floor/list20/", None),
            "stock": (base + STOCK + list20, None),
            "uncached": (base + OURS_UNCACHED + list20, None),
            "cached": (base + OURS_CACHED + list20, None),
        }
        if etag:
            conditional = fetch(base + OURS_CACHED + list20, {"If-None-Match": etag})
            self.raw["conditional_status"] = conditional.status
            sides["304"] = (base + OURS_CACHED + list20, {"If-None-Match": etag})
        results: dict[str, list] = {name: [] for name in sides}
        names = list(sides)
        for round_number in range(ROUNDS):
            # Rotate the order so that no side always runs first (or right after the slow one).
            order = names[round_number % len(names) :] + names[: round_number % len(names)]
            for name in order:
                url, headers = sides[name]
                server.wait_idle()
                results[name].append(run_wrk(url, seconds=WRK_SECONDS, headers=headers))
            log(
                f"round {round_number + 1}/{ROUNDS}: "
                + ", ".join(f"{n} {results[n][-1].requests_per_s:.0f}/s" for n in names)
            )
        self.raw["wrk"] = {name: [vars(r) for r in runs] for name, runs in results.items()}
        rps = {name: summary([r.requests_per_s for r in runs]) for name, runs in results.items()}
        floor = rps["floor"]["median"]
        self.raw["throughput"] = rps

        def ratio_figure(side: str, name: str, target: float, target_text: str) -> None:
            if side not in rps:
                self.add(
                    Figure(
                        name=name,
                        unit="req/s",
                        value=None,
                        target=target_text,
                        holds=False,
                        note="no ETag on the response",
                    )
                )
                return
            value = rps[side]["median"]
            if not floor:
                self.add(
                    Figure(
                        name=name,
                        unit="req/s",
                        value=value,
                        target=target_text,
                        holds=False,
                        note="the floor completed no request",
                    )
                )
                return
            self.add(
                Figure(
                    name=name,
                    unit="req/s",
                    value=value,
                    p90=rps[side]["p90"],
                    baseline=floor,
                    baseline_name="floor (precomputed bytes)",
                    ratio=value / floor if floor else None,
                    target=target_text,
                    holds=value / floor >= target if target else None,
                    note=f"stock: {rps['stock']['median']:.1f} req/s "
                    f"(1/{floor / max(rps['stock']['median'], 0.01):.0f} of the floor)",
                )
            )

        ratio_figure("uncached", "uncached list, limit=20", 0, "(no target)")
        ratio_figure("cached", "warm list (response cache)", 1 / 2, ">= 1/2 of floor")
        ratio_figure("304", "conditional request answered 304", 2 / 3, ">= 2/3 of floor")

    # -- latency and search --------------------------------------------------------------------

    def latencies(self, server: Server) -> None:
        """p50 of ours against stock. The cold rows are the first request to `/api/v2/` after a
        write that changed the response's items (its digests' papers, as the sync writes
        them); search runs on the views without the response cache."""
        base = server.base_url
        detail = f"pages/{self.detail_id()}/"
        search_en = SEARCH.format(locale="en", limit=20, term="congestion")
        search_zh = SEARCH.format(locale="zh-hant", limit=20, term="%E5%A3%85%E5%A1%9E")
        # name: (path, target ratio to stock or None, p50 ceiling in ms or None)
        requests = {
            "cold list, limit=20": (LIST.format(locale="en", limit=20), 1 / 4, None),
            "cold list, limit=100": (LIST.format(locale="en", limit=100), 1 / 8, None),
            "cold detail": (detail, 1 / 2, None),
            "search=congestion, limit=20": (search_en, None, 50),
            "search=壅塞 (zh-hant), limit=20": (search_zh, None, 50),
        }
        samples: dict[str, dict[str, list[float]]] = {
            k: {"ours": [], "stock": []} for k in requests
        }
        # Each server process's first request of a kind pays for imports and per-process
        # caches (content types, URL resolvers, Wagtail's API field lists); that is not what a
        # cold request after a write costs, so one request per side and path comes first.
        for path, _ratio, _ceiling in requests.values():
            for _worker in range(WORKERS):
                for prefix in (OURS_CACHED, OURS_UNCACHED, STOCK):
                    fetch(base + prefix + path)
        for round_number in range(LATENCY_ROUNDS):
            for name, (path, _ratio, _ceiling) in requests.items():
                cold = name.startswith("cold")
                ours = OURS_CACHED if cold else OURS_UNCACHED
                for side, prefix in (("ours", ours), ("stock", STOCK)):
                    stock_ms = sum(samples[name]["stock"])
                    if side == "stock" and round_number >= 3 and stock_ms > STOCK_LATENCY_MS:
                        continue  # stock takes up to seconds a request; three samples say enough
                    if cold and side == "ours":
                        self.write_papers_of(fetch(base + OURS_UNCACHED + path).body)
                    response = fetch(base + prefix + path)
                    assert response.status == 200, (path, response.status, response.body[:300])
                    samples[name][side].append(response.seconds * 1000)
        self.raw["latency_ms"] = {
            name: {side: summary(values) for side, values in sides.items()}
            for name, sides in samples.items()
        }
        for name, sides in samples.items():
            _path, target_ratio, ceiling = requests[name]
            ours = summary(sides["ours"])
            stock = summary(sides["stock"])
            ratio = ours["median"] / stock["median"] if stock["median"] else None
            if target_ratio is not None:
                target, holds = (
                    f"p50 <= 1/{1 / target_ratio:.0f} of stock",
                    (ratio is not None and ratio <= target_ratio),
                )
            else:
                target, holds = f"p50 <= {ceiling} ms", ours["median"] <= ceiling
            self.add(
                Figure(
                    name=f"latency: {name}",
                    unit="ms",
                    value=ours["median"],
                    p90=ours["p90"],
                    baseline=stock["median"],
                    baseline_name="stock",
                    ratio=ratio,
                    target=target,
                    holds=holds,
                )
            )

    @staticmethod
    def write_papers_of(body: bytes) -> None:
        """As the sync does: write the papers of the response's digests, then announce them
        (cms.papers.signals.papers_changed), which makes the response stale everywhere."""
        from django.db import transaction
        from django.db.models import F

        from cms.digests.models import DigestPage
        from cms.papers.models import Paper
        from cms.papers.signals import papers_changed

        data = json.loads(body)
        ids = [item["id"] for item in data.get("items", [data])]
        paper_ids = list(DigestPage.objects.filter(pk__in=ids).values_list("paper_id", flat=True))
        with transaction.atomic():
            Paper.objects.filter(pk__in=paper_ids).update(year=F("year"))
            papers_changed.send(sender=Paper, paper_ids=paper_ids)

    def search_recall(self, server: Server) -> None:
        from cms.digests.models import DigestPage

        from .scenario import SEARCH_TERMS

        for locale, term in SEARCH_TERMS.items():
            expected = {
                pk
                for pk, title, summary_ in DigestPage.objects.live()
                .public()
                .filter(locale__language_code=locale)
                .values_list("pk", "title", "summary")
                if term.casefold() in title.casefold() or term.casefold() in summary_.casefold()
            }
            found = {"ours": self._search_ids(server, OURS_UNCACHED, locale, term)}
            stock_total = self._search_total(server, STOCK, locale, term)
            missing = expected - found["ours"]
            extra = found["ours"] - expected
            self.add(
                Figure(
                    name=f"search recall: {term!r} in {locale}",
                    unit="found",
                    value=len(found["ours"] & expected),
                    baseline=stock_total,
                    baseline_name="stock total_count",
                    target=f"all {len(expected)} containing it",
                    holds=not missing,
                    note=f"expected {len(expected)}, missing {len(missing)}, "
                    f"not containing the term {len(extra)}",
                )
            )

    def _search_total(self, server: Server, prefix: str, locale: str, term: str) -> int | None:
        """Only the stock side's total: paging through it takes seconds a page."""
        from urllib.parse import quote

        url = (
            f"{server.base_url}{prefix}pages/?type=digests.DigestPage&locale={locale}"
            f"&search={quote(term)}&limit=1"
        )
        response = fetch(url)
        return json.loads(response.body)["meta"]["total_count"] if response.status == 200 else None

    def _search_ids(self, server: Server, prefix: str, locale: str, term: str) -> set[int]:
        from urllib.parse import quote

        ids: set[int] = set()
        offset = 0
        while True:
            url = (
                f"{server.base_url}{prefix}pages/?type=digests.DigestPage&locale={locale}"
                f"&search={quote(term)}&limit=100&offset={offset}"
            )
            response = fetch(url)
            if response.status != 200:
                log(f"search on {prefix} answered {response.status}: {response.body[:200]!r}")
                return ids
            data = json.loads(response.body)
            ids.update(item["id"] for item in data["items"])
            offset += 100
            if offset >= data["meta"]["total_count"] or not data["items"]:
                return ids

    # -- memory --------------------------------------------------------------------------------

    def web_memory(self, server: Server) -> None:
        base = server.base_url
        from cms.digests.models import DigestPage

        ids = list(DigestPage.objects.live().values_list("pk", flat=True)[:2000])
        urls = []
        for number in range(MEMORY_REQUESTS):
            # A tenth uncached lists (each a new page of results), three tenths uncached details,
            # the rest repeated requests answered by the response cache.
            locale = ("en", "zh-hant")[number % 2]
            kind = number % 10
            page_id = ids[number % len(ids)]
            if kind == 0:
                urls.append(
                    f"{base}{OURS_UNCACHED}{LIST.format(locale=locale, limit=20)}"
                    f"&offset={(number * 2) % 4000}"
                )
            elif kind <= 3:
                urls.append(f"{base}{OURS_UNCACHED}pages/{page_id}/")
            elif kind <= 6:
                urls.append(f"{base}{OURS_CACHED}{LIST.format(locale=locale, limit=20)}")
            else:
                urls.append(f"{base}{OURS_CACHED}pages/{ids[number % 50]}/")
        for url in urls[:200]:  # warm up: imports, caches, connections
            fetch(url)
        before = server.worker_rss_mb()
        with ThreadPoolExecutor(max_workers=10) as pool:
            statuses = list(pool.map(lambda url: fetch(url).status, urls))
        after = server.worker_rss_mb()
        growth = max(after.get(pid, 0) - rss for pid, rss in before.items())
        self.raw["web_rss_mb"] = {"before": before, "after": after}
        self.add(
            Figure(
                name=f"web worker RSS growth over {MEMORY_REQUESTS} API requests",
                unit="MB",
                value=growth,
                target="< 50 MB",
                holds=growth < 50 and all(status == 200 for status in statuses),
                note=f"worker RSS before {sorted(before.values())}, after {sorted(after.values())}",
            )
        )


def scenario_template(sqlite_file: Path, *, restore: bool) -> bool:
    """BENCH_REUSE_SCENARIO's copy of a built scenario: restore it into the run's database (False
    if there is none yet), or keep the run's database as it. SQLite keeps a file; PostgreSQL a
    database `bench_template_<file stem>` on the same server."""
    from django.db import connection

    connection.close()
    name = connection.settings_dict["NAME"]
    if connection.vendor == "sqlite":
        if restore and not sqlite_file.exists():
            return False
        shutil.copyfile(*((sqlite_file, name) if restore else (name, sqlite_file)))
        return True
    from .databases import copy_database, database_exists

    server = os.environ["BENCH_DATABASE_URL"]
    template = "bench_template_" + sqlite_file.stem.replace("-", "_")
    if restore and not database_exists(server, template):
        return False
    copy_database(server, *((template, name) if restore else (name, template)))
    return True


def migrate_from_template(template_dir: Path) -> None:
    """Migrate the throwaway database; on SQLite, reuse a migrated copy keyed on the migrations.

    Migrating from scratch takes about a minute on this machine, a copy a fraction of a second.
    """
    import hashlib
    import inspect

    from django.core.management import call_command
    from django.db import connection
    from django.db.migrations.loader import MigrationLoader

    if connection.vendor != "sqlite":
        call_command("migrate", verbosity=0, interactive=False)
        return
    # Keyed on the migrations' sources, not only their names: a migration rewritten before it
    # was ever applied anywhere must not reuse a copy made from the old one.
    digest = hashlib.sha256()
    for (app, name), migration in sorted(MigrationLoader(None).disk_migrations.items()):
        digest.update(f"{app}.{name}\n".encode())
        digest.update(Path(inspect.getfile(type(migration))).read_bytes())
    key = digest.hexdigest()[:16]
    template = template_dir / f"sqlite-{key}.sqlite3"
    database = Path(connection.settings_dict["NAME"])
    if template.exists():
        connection.close()
        shutil.copyfile(template, database)
        return
    call_command("migrate", verbosity=0, interactive=False)
    connection.close()
    template_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(database, template)


def settle_like_autovacuum() -> None:
    """On PostgreSQL, VACUUM the freshly loaded tables, as autovacuum does on a live site (the
    ANALYZE half is refresh_planner_statistics, run just before).

    A bulk load leaves tables that autovacuum vacuums within a minute or so (its insert
    threshold is a fifth of the table, checked every minute): their dead row versions pruned
    and their pages marked all-visible, which lets count queries read indexes alone. Measured
    before that, every API figure timed a state no production database stays in (the listing's
    count query 8.3 -> 4.5 ms, its page query 2.1 -> 1.5 ms), and whether autovacuum happened to
    run during a measurement decided some of them. Both compared sides read the same database;
    SQLite has nothing of the kind.
    """
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("VACUUM")


def main() -> None:
    out = Path(sys.argv[1])
    work_dir = out.parent
    django.setup()
    from django.db import connection

    run = Run(work_dir)
    run.raw["vendor"] = connection.vendor
    run.build_scenario()
    # For iterating on one figure only: BENCH_STAGES=latencies (names below, comma-separated).
    wanted = set(filter(None, os.environ.get("BENCH_STAGES", "").split(","))) or None

    def stage_wanted(name: str) -> bool:
        return wanted is None or name in wanted

    if stage_wanted("query_counts"):
        run.guarded(run.query_counts)
    from . import memory_bench

    if stage_wanted("memory"):
        for figure in run.guarded(memory_bench.measure) or []:
            run.add(figure)
    connection.close()
    floor_dir = Path(os.environ["BENCH_FLOOR_DIR"])
    floor_dir.mkdir(parents=True, exist_ok=True)
    env = env_for(os.environ["BENCH_DATABASE_URL"], floor_dir, Path(os.environ["VAR_DIR"]))
    with Server(env, work_dir / "gunicorn.log") as server:
        for stage in (run.throughput, run.latencies, run.search_recall, run.web_memory):
            if stage_wanted(stage.__name__):
                run.guarded(stage, server)
                server.wait_idle()
        from . import dashboard_bench

        if stage_wanted("dashboard"):
            for figure in run.guarded(dashboard_bench.measure, server) or []:
                run.add(figure)
        from . import changes_bench

        if stage_wanted("changes"):  # last on the server: it writes to the scenario
            for figure in run.guarded(changes_bench.measure, server) or []:
                run.add(figure)
    from . import sync_bench

    if stage_wanted("sync"):
        for figure in run.guarded(sync_bench.measure, work_dir, env) or []:
            run.add(figure)
    out.write_text(
        json.dumps(
            {"figures": [vars(f) for f in run.figures], "raw": run.raw},
            ensure_ascii=False,
            indent=2,
            default=str,
        )
    )


if __name__ == "__main__":
    main()
