"""Load generators: wrk for throughput, a plain HTTP client for per-request latency."""

from __future__ import annotations

import http.client
import re
import shutil
import subprocess
import time
from dataclasses import dataclass
from statistics import median
from urllib.parse import urlsplit

CONNECTIONS = 10
THREADS = 2

_UNITS = {"us": 1e-3, "ms": 1.0, "s": 1000.0, "m": 60000.0}


@dataclass
class WrkResult:
    requests_per_s: float
    latency_p50_ms: float | None
    latency_p90_ms: float | None
    requests: int
    errors: int


def wrk_path() -> str:
    path = shutil.which("wrk")
    if path is None:
        raise RuntimeError("wrk is not installed; run `make bench-tools` (Debian package wrk)")
    return path


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()
    return float(number) * _UNITS[unit]


def run_wrk(url: str, *, seconds: float, headers: dict[str, str] | None = None) -> WrkResult:
    command = [
        wrk_path(),
        f"-t{THREADS}",
        f"-c{CONNECTIONS}",
        f"-d{seconds}s",
        "--timeout",
        "30s",
        "--latency",
    ]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    output = subprocess.run(
        [*command, url], capture_output=True, text=True, check=True, timeout=seconds + 60
    ).stdout
    percentiles = dict(re.findall(r"^\s+(50|90)%\s+(\S+)$", output, re.MULTILINE))
    errors = sum(int(n) for n in re.findall(r"Non-2xx or 3xx responses: (\d+)", output))
    errors += (
        sum(int(n) for n in re.findall(r"Socket errors: .*?(\d+)", output))
        if "Socket errors" in output
        else 0
    )
    return WrkResult(
        requests_per_s=float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1)),
        latency_p50_ms=_ms(percentiles["50"]) if "50" in percentiles else None,
        latency_p90_ms=_ms(percentiles["90"]) if "90" in percentiles else None,
        requests=int(re.search(r"(\d+) requests in", output).group(1)),
        errors=errors,
    )


@dataclass
class Response:
    status: int
    headers: dict[str, str]
    body: bytes
    seconds: float


def fetch(url: str, headers: dict[str, str] | None = None) -> Response:
    """One GET on a fresh connection, timed from connect to the last byte."""
    parts = urlsplit(url)
    started = time.perf_counter()
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    try:
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        connection.request("GET", path, headers=headers or {})
        reply = connection.getresponse()
        body = reply.read()
        elapsed = time.perf_counter() - started
        return Response(reply.status, {k.lower(): v for k, v in reply.getheaders()}, body, elapsed)
    finally:
        connection.close()


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile (fraction 0.9 for p90) of a non-empty list."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(fraction * len(ordered) + 0.5) - 1))
    return ordered[rank]


def summary(values: list[float]) -> dict[str, float]:
    return {"median": median(values), "p90": percentile(values, 0.9), "runs": len(values)}
