"""`make bench`: run every measurement on SQLite (and PostgreSQL when DATABASE_URL points there).

Each backend runs in its own process against a throwaway database that is dropped afterwards;
the table is printed, every figure goes to var/bench/results.json and is plotted beside it in
var/bench/results.svg (bench/plot.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from .databases import throwaway_postgres
from .plot import write_plot
from .report import table

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "var" / "bench"
# The web processes' shared cache, as in production (deploy/): a Redis database of its own,
# emptied before each backend. Without a Redis answering there, the file cache of `make run`.
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/13"


def _empty_redis(url: str) -> bool:
    """Empty the benchmark's Redis database; False if no Redis answers at `url`."""
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).flushdb()
    except redis.RedisError as error:
        print(f"no Redis at {url} ({error}): the file cache instead", file=sys.stderr)
        return False
    return True


def _run_backend(label: str, database_url: str, work_dir: Path) -> dict:
    work_dir.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "BENCH_DATABASE_URL": database_url,
            "BENCH_FLOOR_DIR": str(work_dir / "floor"),
            "VAR_DIR": str(work_dir / "var"),
            "PYTHONPATH": str(ROOT),
        }
    )
    redis_url = os.environ.get("BENCH_REDIS_URL", DEFAULT_REDIS_URL)
    env["BENCH_CACHE_URL"] = redis_url if _empty_redis(redis_url) else ""
    out = work_dir / "results.json"
    print(f"== {label}", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-m", "bench.backend", str(out)], env=env, check=True, cwd=ROOT)
    return json.loads(out.read_text())


def _postgres(database_url: str, work_dir: Path) -> dict:
    with throwaway_postgres(database_url) as url:
        return _run_backend(f"PostgreSQL ({url.rsplit('/', 1)[1]})", url, work_dir)


def main() -> None:
    started = time.perf_counter()
    run_dir = OUT_DIR / time.strftime("run-%Y%m%d-%H%M%S")
    results: dict[str, dict] = {}
    backends = os.environ.get("BENCH_BACKENDS", "sqlite,postgresql").split(",")
    sqlite_dir = run_dir / "sqlite"
    if "sqlite" in backends:
        results["sqlite"] = _run_backend(
            "SQLite", f"sqlite:///{sqlite_dir / 'bench.sqlite3'}", sqlite_dir
        )
    database_url = os.environ.get("DATABASE_URL", "")
    if "postgresql" in backends and database_url.startswith(("postgres://", "postgresql://")):
        results["postgresql"] = _postgres(database_url, run_dir / "postgresql")
    summary = {
        "generated_at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "seconds": round(time.perf_counter() - started, 1),
        "backends": results,
    }
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    (OUT_DIR / "results.json").write_text(json.dumps(summary, ensure_ascii=False, indent=2))
    plot = write_plot(OUT_DIR / "results.json")
    for backend, result in results.items():
        print()
        print(table(backend, result["figures"]))
    print(f"\nmake bench took {summary['seconds']:.0f} s; figures in {OUT_DIR / 'results.json'}")
    print(f"plotted in {plot}")


if __name__ == "__main__":
    main()
