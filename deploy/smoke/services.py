"""The deployment's long-running processes: started in their own process group, logged to files."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

from .runner import StepFailed

ROOT = Path(__file__).resolve().parents[2]
LOG_TAIL_LINES = 60


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tail(text: str, lines: int = LOG_TAIL_LINES) -> str:
    return "\n".join(text.splitlines()[-lines:])


class Service:
    """gunicorn, a Celery worker or beat, run from the repository root like systemd runs them."""

    def __init__(self, name: str, command: list[str], env: dict[str, str], log: Path) -> None:
        self.name, self.log = name, log
        with log.open("wb") as out:
            self.process = subprocess.Popen(
                command,
                cwd=ROOT,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def running(self) -> bool:
        return self.process.poll() is None

    def log_text(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def wait_for_log(self, needle: str, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if needle in self.log_text():
                return
            if not self.running():
                raise StepFailed(f"{self.name} exited with status {self.process.returncode}")
            time.sleep(0.2)
        raise StepFailed(f"{self.name} did not log {needle!r} within {timeout:.0f} s")

    def stop(self, grace: float) -> str:
        """SIGTERM to the main process (a warm shutdown for gunicorn and Celery), then SIGKILL
        to anything left in its process group."""
        if self.running():
            self.process.send_signal(signal.SIGTERM)
        try:
            code = self.process.wait(timeout=grace)
            status = (
                f"exit status {code}" if code >= 0 else f"ended by {signal.Signals(-code).name}"
            )
        except subprocess.TimeoutExpired:
            status = f"killed after {grace:.0f} s"
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        return status


def live_processes_with(variable: str, value: str) -> list[int]:
    """Pids of live (not zombie) processes whose environment has variable=value (Linux /proc).

    Every process the smoke test starts inherits its run id, so this finds grandchildren too,
    whichever process group they ended up in.
    """
    marker = f"{variable}={value}".encode()
    found = []
    for proc in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError):  # gone meanwhile, or another user's
            state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
            if state != "Z" and marker in (proc / "environ").read_bytes().split(b"\0"):
                found.append(int(proc.name))
    return found
