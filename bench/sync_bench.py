"""Sync of every paper in the scenario (5,000) against the local stand-in upstream.

The sync runs as `manage.py sync_papers` in its own process (the worker's code path, in-process
tasks), with every source's base URL pointed at the stand-in and the default rate limits; its
peak RSS is the worker figure.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import time
from pathlib import Path

from .report import Figure
from .upstream import Upstream

SOURCE_URL_ENV = {
    "crossref": "CROSSREF_API_URL",
    "openalex": "OPENALEX_API_URL",
    "dblp": "DBLP_API_URL",
    "semanticscholar": "SEMANTIC_SCHOLAR_API_URL",
}
TARGET = "<= 1.5 requests/paper, no one-second window over a limit, wall <= 1.2x ceiling"


# manage.py sync_papers, printing its own peak RSS (VmHWM) at exit.
_REPORT_PEAK_RSS = """
import resource, runpy, sys
sys.argv = ["manage.py", "sync_papers"]
try:
    runpy.run_path("manage.py", run_name="__main__")
finally:
    print("PEAK_RSS_KB", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
"""


def _peak_from_log(path: Path) -> float:
    for line in reversed(path.read_text(errors="replace").splitlines()):
        if line.startswith("PEAK_RSS_KB"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _per_second(limit: str) -> float:
    amount, _, unit = limit.partition("/")
    return int(amount) / {"second": 1, "minute": 60, "hour": 3600, "day": 86400}[unit]


def measure(work_dir: Path, env: dict[str, str]) -> list[Figure]:
    if importlib.util.find_spec("sync.conf") is None:
        return [
            Figure(
                name="sync of 5,000 papers",
                unit="",
                value=None,
                target=TARGET,
                holds=None,
                note="not measured: the sync worker is not on main yet",
            )
        ]
    from django.conf import settings

    from cms.papers.models import Paper
    from sync.conf import rate_limits

    papers = Paper.objects.count()
    limits = {source: _per_second(limit) for source, limit in rate_limits().items()}
    with Upstream() as upstream:
        run_env = dict(env)
        run_env.pop("REDIS_URL", None)  # tasks in-process: the sync process is the worker
        for source, variable in SOURCE_URL_ENV.items():
            run_env[variable] = upstream.base_url(source)
        started = time.monotonic()
        with (work_dir / "sync.log").open("wb") as log:
            completed = subprocess.run(
                [sys.executable, "-c", _REPORT_PEAK_RSS],
                env=run_env,
                stdout=log,
                stderr=log,
                cwd=Path(settings.BASE_DIR),
                check=False,
            )
        wall = time.monotonic() - started
        peak_mb = _peak_from_log(work_dir / "sync.log")
        counts = {source: len(times) for source, times in upstream.requests.items()}
        busiest = {source: upstream.busiest_second(source) for source in counts}
    total = sum(counts.values())
    ceiling = max((counts[s] / limits[s] for s in counts if s in limits), default=0.0)
    over = {s: busiest[s] for s in busiest if s in limits and busiest[s] > limits[s]}
    note = f"exit {completed.returncode}; requests {counts}; busiest second {busiest}"
    return [
        Figure(
            name=f"sync: requests per paper ({papers} papers)",
            unit="req/paper",
            value=total / max(papers, 1),
            target="<= 1.5",
            holds=completed.returncode == 0 and total / max(papers, 1) <= 1.5,
            note=note,
        ),
        Figure(
            name="sync: one-second windows over a source's limit",
            unit="sources",
            value=len(over),
            target="0",
            holds=not over,
            note=f"limits {limits}; over: {over}",
        ),
        Figure(
            name="sync: wall time",
            unit="s",
            value=wall,
            baseline=ceiling,
            baseline_name="ceiling the limits imply",
            ratio=wall / ceiling if ceiling else None,
            target="<= 1.2x ceiling",
            holds=bool(ceiling) and wall <= 1.2 * ceiling,
        ),
        Figure(
            name="sync: worker peak RSS",
            unit="MB",
            value=peak_mb,
            target="< 300 MB",
            holds=peak_mb < 300,
        ),
    ]
