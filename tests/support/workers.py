"""Real Celery worker subprocesses on the real Redis broker, for the integration tests.

Used by tests/sync/test_worker.py (syncs through the worker) and tests/ops/test_worker_health.py
(the orchestrator's health command); the fixtures `broker` and `worker_pool` are in
tests/conftest.py. `.ci/run` starts Redis; if it does not answer these tests fail, never skip.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import redis
from django.conf import settings
from django.db import connection

from sync.worker_command import celery_worker_command

if TYPE_CHECKING:
    from tests.standin import Upstream

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/1"
ROOT = Path(settings.BASE_DIR)
T = TypeVar("T")


def wait_for(predicate: Callable[[], T], timeout: float, message: str) -> T:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout}s waiting for {message}")


def database_url() -> str:
    """The test database as a URL, so a subprocess shares it."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{db['NAME']}"
    auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
    return f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"


def free_port() -> int:
    """A local TCP port nothing listens on (connections to it are refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """A redis-server of the test's own on a free port, without persistence, so that a
    restart loses everything as a crashed Redis does; `restart()` does that. With `persist`,
    it keeps an append-only file as deploy/ does, and comes back with what it held."""

    def __init__(self, tmp_path: Path, *, persist: bool = False):
        self.port, self.tmp_path, self.persist = free_port(), tmp_path, persist
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "yes" if self.persist else "no",
                "--appendfsync",
                "always",
                "--dir",
                str(self.tmp_path),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        client = redis.Redis.from_url(self.url, socket_connect_timeout=1)
        wait_for(lambda: _answers(client), 20, "redis-server to start")
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self, down_for: float = 0.0) -> None:
        self.stop()
        time.sleep(down_for)
        self.start()


def _answers(client: redis.Redis) -> bool:
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False


class Workers:
    """Start and SIGKILL `python -m sync.worker` subprocesses; always cleaned up.

    With `upstream` set, every source's base URL points at that local stand-in.
    """

    def __init__(self, queue: str, tmp_path: Path, upstream: Upstream | None = None):
        self.queue, self.tmp_path, self.upstream = queue, tmp_path, upstream
        self.redis_url = REDIS_URL  # a test with a Redis of its own points it there
        self.processes: list[tuple[subprocess.Popen, Path]] = []

    def env(self, **extra: str) -> dict[str, str]:
        """The environment of a worker, and of any command that talks to it through Redis."""
        env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "cms.settings.test",
                "DATABASE_URL": database_url(),
                "REDIS_URL": self.redis_url,
                "SYNC_TEST_WORKER": "1",
                "SYNC_QUEUE": self.queue,
                "SYNC_VISIBILITY_TIMEOUT": "3",
                "SYNC_LEASE_SECONDS": "2",  # a dead worker's papers are free again soon
                "SYNC_BATCH_SIZE": "10",
            }
        )
        if self.upstream is not None:
            env.update(
                {
                    "DBLP_API_URL": self.upstream.url("dblp"),
                    "CROSSREF_API_URL": self.upstream.url("crossref"),
                    "OPENALEX_API_URL": self.upstream.url("openalex"),
                    "SEMANTIC_SCHOLAR_API_URL": self.upstream.url("semanticscholar"),
                }
            )
        env.update(extra)
        return env

    def start(self, concurrency: int = 1, node: str | None = None, **env: str) -> subprocess.Popen:
        """A worker on the test queue, started and ready; `node` names it (default: random)."""
        log = self.tmp_path / f"worker-{len(self.processes)}.log"
        process = subprocess.Popen(
            celery_worker_command(
                queue=self.queue,
                concurrency=concurrency,
                hostname=node or f"{uuid.uuid4().hex[:6]}@%h",
            ),
            cwd=ROOT,
            env=self.env(**env),
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so SIGKILL reaches the children
        )
        self.processes.append((process, log))
        wait_for(
            lambda: "ready." in log.read_text() or process.poll() is not None,
            90,
            "the worker to start",
        )
        assert process.poll() is None, log.read_text()[-3000:]
        return process

    def start_beat(self, **env: str) -> subprocess.Popen:
        """Celery beat as deploy/ runs it (one, with its schedule file in the test's dir)."""
        log = self.tmp_path / f"beat-{len(self.processes)}.log"
        command = [sys.executable, "-m", "celery", "-A", "cms", "beat", "--loglevel=INFO"]
        command.append(f"--schedule={self.tmp_path / 'beat-schedule'}")
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env(**env),
            stdout=log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.processes.append((process, log))
        wait_for(
            lambda: "beat: Starting" in log.read_text() or process.poll() is not None,
            90,
            "beat to start",
        )
        assert process.poll() is None, log.read_text()[-3000:]
        return process

    def kill(self, process: subprocess.Popen) -> None:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)

    def stop_all(self) -> None:
        for process, _log in self.processes:
            self.kill(process)
