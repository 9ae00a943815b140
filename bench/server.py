"""Start and stop the gunicorn server under test and read its workers' memory."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

WORKERS = 2


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    """gunicorn with 2 sync workers on the benchmark settings, as production serves the API."""

    def __init__(self, env: dict[str, str], log_path: Path):
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.env = env
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Server:
        self.log = self.log_path.open("ab")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "cms.wsgi:application",
                "--workers",
                str(WORKERS),
                "--bind",
                f"127.0.0.1:{self.port}",
                "--timeout",
                "120",
                "--log-level",
                "warning",
            ],
            env=self.env,
            stdout=self.log,
            stderr=self.log,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited; see {self.log_path}")
            try:
                urllib.request.urlopen(f"{self.base_url}/bench/floor/missing/", timeout=2)
            except urllib.error.HTTPError:
                if len(self.worker_pids()) == WORKERS:
                    return self
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not start; see {self.log_path}")

    def __exit__(self, *exc) -> None:
        if self.process is not None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()

    def wait_idle(self, timeout: float = 120) -> None:
        """Wait until both workers are free again: a load run leaves requests queued behind it."""
        from concurrent.futures import ThreadPoolExecutor

        def quick(_):
            started = time.monotonic()
            with contextlib.suppress(OSError):
                urllib.request.urlopen(f"{self.base_url}/bench/floor/list20/", timeout=timeout)
            return time.monotonic() - started

        deadline = time.monotonic() + timeout
        with ThreadPoolExecutor(max_workers=WORKERS) as pool:
            while time.monotonic() < deadline:
                if max(pool.map(quick, range(WORKERS))) < 0.25:
                    return

    def worker_pids(self) -> list[int]:
        assert self.process is not None
        path = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children")
        try:
            return [int(pid) for pid in path.read_text().split()]
        except OSError:
            return []

    def worker_rss_mb(self) -> dict[int, float]:
        return {pid: rss_mb(pid) for pid in self.worker_pids()}


def rss_mb(pid: int) -> float:
    """Resident set size of a process, in MB (VmRSS)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def peak_rss_mb(pid: int) -> float:
    """Peak resident set size of a process, in MB (VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def env_for(database_url: str, floor_dir: Path, var_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        {
            "DJANGO_SETTINGS_MODULE": "bench.settings",
            "BENCH_DATABASE_URL": database_url,
            "BENCH_FLOOR_DIR": str(floor_dir),
            "VAR_DIR": str(var_dir),
            "PYTHONPATH": str(Path(__file__).resolve().parent.parent),
        }
    )
    return env
