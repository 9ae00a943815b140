"""A Celery sync worker as production runs it, and the memory of its whole process tree.

`python -m sync.worker` (sync/worker_command.py) with the prefork pool (the default, as deploy/
starts it), on a queue of its own on the real Redis broker. Its memory is the main process plus
every pool child: resident set sizes summed (pages the children share with the parent after the
fork are counted once per process, so this overstates what the machine gives it) and
proportional set sizes summed (shared pages split between the processes that share them: what
it really costs).
"""

from __future__ import annotations

import os
import signal
import subprocess
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from sync.worker_command import celery_worker_command


def _status_kb(pid: int, key: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{key}:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _pss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class TreeMemory:
    rss_mb: float
    pss_mb: float
    hwm_mb: float  # sum of each process's own peak (VmHWM): a bound no sample can miss
    processes: dict[int, dict[str, float]] = field(default_factory=dict)


class Worker:
    """Start with `with Worker(...) as worker:`; SIGTERM (warm shutdown), then SIGKILL."""

    def __init__(self, env: dict[str, str], log_path: Path, *, queue: str, concurrency: int):
        self.env, self.log_path = env, log_path
        self.queue, self.concurrency = queue, concurrency
        self.process: subprocess.Popen | None = None

    def __enter__(self) -> Worker:
        self.log = self.log_path.open("wb")
        self.process = subprocess.Popen(
            celery_worker_command(
                queue=self.queue,
                concurrency=self.concurrency,
                hostname=f"bench-{os.getpid()}@%h",
            ),
            env={**self.env, "SYNC_QUEUE": self.queue},
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: the children stop with it
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited; see {self.log_path}")
            if b" ready." in self.log_path.read_bytes() and len(self.pids()) > self.concurrency:
                return self
            time.sleep(0.2)
        raise RuntimeError(f"the worker did not start; see {self.log_path}")

    def __exit__(self, *exc) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        self.log.close()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def pids(self) -> list[int]:
        assert self.process is not None
        main = self.process.pid
        try:
            children = Path(f"/proc/{main}/task/{main}/children").read_text().split()
        except OSError:
            return []
        return [main, *map(int, children)]

    def memory(self) -> TreeMemory:
        processes = {
            pid: {
                "rss_mb": _status_kb(pid, "VmRSS") / 1024,
                "hwm_mb": _status_kb(pid, "VmHWM") / 1024,
                "pss_mb": _pss_kb(pid) / 1024,
            }
            for pid in self.pids()
        }
        return TreeMemory(
            rss_mb=sum(p["rss_mb"] for p in processes.values()),
            pss_mb=sum(p["pss_mb"] for p in processes.values()),
            hwm_mb=sum(p["hwm_mb"] for p in processes.values()),
            processes=processes,
        )


class MemoryPeak(threading.Thread):
    """Samples a worker's tree memory and keeps the peaks: RSS every `interval` seconds, PSS
    ten times less often (reading it walks the process's page tables, which slows it down)."""

    def __init__(self, worker: Worker, interval: float = 0.1):
        super().__init__(daemon=True)
        self.worker, self.interval = worker, interval
        self.rss_mb = self.pss_mb = 0.0
        self.samples = 0
        self._done = threading.Event()

    def run(self) -> None:
        while not self._done.is_set():
            if self.samples % 10 == 0:
                memory = self.worker.memory()
                self.pss_mb = max(self.pss_mb, memory.pss_mb)
                rss = memory.rss_mb
            else:
                rss = sum(_status_kb(pid, "VmRSS") for pid in self.worker.pids()) / 1024
            self.rss_mb = max(self.rss_mb, rss)
            self.samples += 1
            self._done.wait(self.interval)

    def stop(self) -> None:
        self._done.set()
        self.join()
