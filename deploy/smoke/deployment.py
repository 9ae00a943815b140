"""The deployment under test: its database, Redis db, environment, processes and clean-up."""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shelve
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import dj_database_url
import psycopg
import redis
import requests

from tests.standin import Upstream
from tests.sync.recorded import recorded_catalog

from .proxy import PUBLIC_HOST, PUBLIC_ORIGIN
from .runner import Step, StepFailed
from .services import ROOT, Service, free_port, live_processes_with, tail
from .site_actions import RESULT_MARKER

DEFAULT_DATABASE_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"
# Each source's base URL setting (cms/settings/base.py), pointed at the recorded stand-in.
API_URL_SETTINGS = {
    "dblp": "DBLP_API_URL",
    "crossref": "CROSSREF_API_URL",
    "openalex": "OPENALEX_API_URL",
    "semanticscholar": "SEMANTIC_SCHOLAR_API_URL",
}
STOP_GRACE_SECONDS = {"gunicorn": 40, "worker": 60, "beat": 20}


def database_server_url() -> str:
    """SMOKE_DATABASE_URL, else the suite's DATABASE_URL when it is PostgreSQL, else local."""
    explicit = os.environ.get("SMOKE_DATABASE_URL")
    if explicit:
        return explicit
    suite = os.environ.get("DATABASE_URL", "")
    return suite if suite.startswith(("postgres://", "postgresql://")) else DEFAULT_DATABASE_SERVER


class Deployment:
    """One production deployment on this machine, brought up step by step and taken down."""

    def __init__(self, database_server_url: str, redis_url: str) -> None:
        self.run_id = uuid.uuid4().hex[:10]
        self.database = f"smoke_{self.run_id}"
        self.server = dj_database_url.parse(database_server_url)
        self.redis_url = redis_url
        self.redis = redis.Redis.from_url(redis_url, socket_connect_timeout=3)
        self.work = Path(tempfile.mkdtemp(prefix=f"smoke-{self.run_id}-"))
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.node = f"smoke-{self.run_id}@{socket.gethostname()}"
        self.beat_schedule = self.work / "celerybeat-schedule"
        self.upstream = Upstream(recorded_catalog())
        self.services: list[Service] = []
        self.editor_password = secrets.token_urlsafe(24)
        self.env = self._environment()
        # What exists so far, so that clean-up touches only what this run created.
        self.redis_is_ours = self.database_created = self.upstream_running = False

    # -- environment and commands --------------------------------------------------------------

    def _environment(self) -> dict[str, str]:
        """The environment of every process: what deploy/.env.example asks an operator for."""
        kept = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV")
        env = {name: os.environ[name] for name in kept if name in os.environ}
        env.update(
            {
                "SMOKE_RUN_ID": self.run_id,  # marks every process this run starts
                "PYTHONUNBUFFERED": "1",
                "DJANGO_SETTINGS_MODULE": "cms.settings.production",
                "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
                "ALLOWED_HOSTS": PUBLIC_HOST,
                "CSRF_TRUSTED_ORIGINS": PUBLIC_ORIGIN,
                "WAGTAILADMIN_BASE_URL": PUBLIC_ORIGIN,
                "WAGTAILAPI_BASE_URL": PUBLIC_ORIGIN,
                "DATABASE_URL": self._database_url(),
                "REDIS_URL": self.redis_url,
                "VAR_DIR": str(self.work / "var"),
                "GUNICORN_BIND": f"127.0.0.1:{self.port}",
                "WEB_CONCURRENCY": "2",
                "FORWARDED_ALLOW_IPS": "127.0.0.1",
                "SYNC_CONTACT_EMAIL": "smoke@example.org",
                # The stand-in is local: the limits are still counted in Redis and shared by the
                # worker's processes, but at a rate that does not stretch the run by a minute.
                "SYNC_RATE_LIMITS": "crossref=20/s,openalex=20/s,dblp=20/s,semanticscholar=20/s",
                "SMOKE_EDITOR_PASSWORD": self.editor_password,
                **{setting: self.upstream.url(name) for name, setting in API_URL_SETTINGS.items()},
            }
        )
        return env

    def _database_url(self) -> str:
        user = self.server["USER"] or "postgres"
        auth = user + (f":{self.server['PASSWORD']}" if self.server["PASSWORD"] else "")
        host = self.server["HOST"] or "127.0.0.1"
        return f"postgres://{auth}@{host}:{self.server['PORT'] or 5432}/{self.database}"

    def _admin_connection(self) -> psycopg.Connection:
        return psycopg.connect(
            host=self.server["HOST"] or "127.0.0.1",
            port=self.server["PORT"] or 5432,
            user=self.server["USER"] or "postgres",
            password=self.server["PASSWORD"] or None,
            dbname="postgres",
            autocommit=True,
            connect_timeout=5,
        )

    def python(self, *args: str, timeout: float = 300) -> str:
        """Run `python ARGS` in the deployment's environment; its stdout, or StepFailed."""
        try:
            result = subprocess.run(
                [sys.executable, *args],
                cwd=ROOT,
                env=self.env,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired as error:
            raise StepFailed(f"{' '.join(args)} did not finish within {timeout:.0f} s") from error
        if result.returncode != 0:
            raise StepFailed(
                f"{' '.join(args)} exited with status {result.returncode}:\n"
                + tail(result.stdout + result.stderr, 40)
            )
        return result.stdout

    def manage(self, *args: str, timeout: float = 300) -> str:
        return self.python("manage.py", *args, timeout=timeout)

    def site_action(self, *args: str, timeout: float = 300) -> dict:
        """One of deploy/smoke/site_actions.py's actions; the result it reports."""
        output = self.python("-m", "deploy.smoke.site_actions", *args, timeout=timeout)
        lines = [line for line in output.splitlines() if line.startswith(RESULT_MARKER)]
        if not lines:
            raise StepFailed(f"site action {args[0]} reported no result:\n{tail(output, 20)}")
        return json.loads(lines[-1].removeprefix(RESULT_MARKER))

    def service(self, name: str) -> Service:
        return next(service for service in self.services if service.name == name)

    def _start(self, name: str, *command: str) -> Service:
        service = Service(name, [sys.executable, *command], self.env, self.work / f"{name}.log")
        self.services.append(service)
        return service

    # -- bringing it up ------------------------------------------------------------------------

    def bring_up(self) -> list[Step]:
        return [
            ("PostgreSQL and Redis answer; the Redis db is empty", self.preflight),
            ("create the throwaway database", self.create_database),
            ("manage.py check --deploy", self.check_deploy),
            ("manage.py migrate", self.migrate),
            ("manage.py collectstatic", self.collectstatic),
            ("manage.py compilemessages", self.compilemessages),
            ("manage.py import_digests (the seed, en + zh-hant)", self.import_seed),
            ("manage.py setup_translation_roles", self.setup_roles),
            ("serve the recorded upstream responses", self.start_upstream),
            ("start gunicorn; /healthz and /readyz", self.start_web),
            ("start one Celery worker; manage.py worker_health", self.start_worker),
            ("start exactly one Celery beat", self.start_beat),
        ]

    def preflight(self) -> str:
        try:
            with self._admin_connection() as connection:
                version = connection.execute("SHOW server_version").fetchone()[0]
        except psycopg.Error as error:
            raise StepFailed(f"PostgreSQL at {self.server['HOST']}: {error}") from error
        try:
            self.redis.ping()
            keys = self.redis.dbsize()
        except redis.RedisError as error:
            raise StepFailed(f"Redis at {self.redis_url}: {error}") from error
        if keys:
            raise StepFailed(
                f"{self.redis_url} holds {keys} keys: the smoke test needs a Redis db of its own "
                "that it may flush afterwards (set SMOKE_REDIS_URL to an empty one)"
            )
        self.redis_is_ours = True
        return f"PostgreSQL {version}, {self.redis_url}"

    def create_database(self) -> str:
        with self._admin_connection() as connection:
            connection.execute(f'CREATE DATABASE "{self.database}"')
        self.database_created = True
        return self.database

    def check_deploy(self) -> None:
        output = self.manage("check", "--deploy", "--fail-level", "WARNING")
        if "System check identified no issues (0 silenced)." not in output:
            raise StepFailed(f"check --deploy reported:\n{output}")

    def migrate(self) -> None:
        self.manage("migrate", "--noinput")

    def collectstatic(self) -> str:
        return self.manage("collectstatic", "--noinput").strip().splitlines()[-1]

    def compilemessages(self) -> str:
        # The virtualenv sits inside the code directory; its packages ship compiled catalogs.
        self.manage("compilemessages", "--ignore=.venv/*", "--ignore=var/*", "-v", "0")
        compiled = ROOT / "locales" / "zh_Hant" / "LC_MESSAGES" / "django.mo"
        if not compiled.exists():
            raise StepFailed(f"{compiled} was not written")
        return str(compiled.relative_to(ROOT))

    def import_seed(self) -> None:
        self.manage("import_digests", "-v", "0")

    def setup_roles(self) -> str:
        return self.manage("setup_translation_roles").strip().splitlines()[-1]

    def start_upstream(self) -> str:
        self.upstream.__enter__()
        self.upstream_running = True
        return self.upstream.url("").rstrip("/")

    def start_web(self) -> str:
        web = self._start("gunicorn", "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "cms.wsgi")
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if not web.running():
                raise StepFailed(f"gunicorn exited with status {web.process.returncode}")
            # Probes come from the orchestrator over plain HTTP, to the process's own address.
            # Until a worker has booted, a probe waits in the listen queue: retry it too.
            with contextlib.suppress(requests.ConnectionError, requests.Timeout):
                if requests.get(f"{self.base_url}/healthz", timeout=5).status_code == 200:
                    ready = requests.get(f"{self.base_url}/readyz", timeout=5)
                    expected = {"database": "ok", "redis": "ok"}
                    if ready.status_code == 200 and ready.json()["checks"] == expected:
                        workers = web.log_text().count("Booting worker")
                        return f"{self.base_url}, {workers} workers, ready"
            time.sleep(0.3)
        raise StepFailed("gunicorn did not become ready within 90 s")

    def start_worker(self) -> str:
        worker = self._start(
            "worker", "-m", "sync.worker", "-l", "INFO", "-c", "2",
            "-n", self.node,
        )  # fmt: skip
        worker.wait_for_log(" ready.", timeout=90)
        output = self.manage("worker_health", "--node", self.node, "--timeout", "5")
        if self.node not in output:
            raise StepFailed(f"worker_health did not name {self.node}: {output!r}")
        return output.strip().splitlines()[-1]

    def start_beat(self) -> str:
        beat = self._start(
            "beat", "-m", "celery", "-A", "cms", "beat", "-l", "INFO",
            "--schedule", str(self.beat_schedule), "--pidfile", str(self.work / "beat.pid"),
        )  # fmt: skip
        beat.wait_for_log("beat: Starting", timeout=60)
        beats = [service for service in self.services if service.name == "beat"]
        if len(beats) != 1 or not beat.running():
            raise StepFailed(f"{len(beats)} beats started, want exactly one, running")
        return f"pid {beat.process.pid}"

    def check_still_running(self) -> str:
        down = [service.name for service in self.services if not service.running()]
        if down:
            raise StepFailed(f"no longer running: {', '.join(down)}")
        return ", ".join(f"{s.name} (pid {s.process.pid})" for s in self.services)

    # -- taking it down ------------------------------------------------------------------------

    def take_down(self) -> list[Step]:
        """Stop in reverse order of start, then remove what this run created, and only that."""
        actions: list[Step] = []
        for service in reversed(self.services):
            grace = STOP_GRACE_SECONDS[service.name]
            actions.append((f"stop {service.name}", lambda s=service, g=grace: s.stop(g)))
            if service.name == "beat":
                actions.append(("beat's schedule", self.read_beat_schedule))
        if self.upstream_running:
            actions.append(("stop the recorded upstream", self.stop_upstream))
        if self.database_created:
            actions.append((f"drop database {self.database}", self.drop_database))
        if self.redis_is_ours:
            actions.append((f"empty {self.redis_url}", self.empty_redis))
        actions.append(("nothing this run started is left running", self.check_nothing_left))
        actions.append(("remove the work directory", self.remove_work))
        return actions

    def read_beat_schedule(self) -> str:
        # Beat writes its entries to the shelve on shutdown: what it would have sent, and when.
        with shelve.open(str(self.beat_schedule), flag="r") as schedule:
            entries = schedule.get("entries", {})
            names = sorted(entries)
            shown = ", ".join(f"{name} ({entries[name].schedule})" for name in names)
        for wanted in ("sync all papers", "retry papers due again"):
            if wanted not in names:
                raise StepFailed(f"beat did not schedule {wanted!r}: {names}")
        return shown

    def stop_upstream(self) -> str:
        self.upstream.__exit__(None, None, None)
        return f"{len(self.upstream.log)} requests served"

    def drop_database(self) -> str:
        with self._admin_connection() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            left = connection.execute(
                "SELECT count(*) FROM pg_database WHERE datname = %s", [self.database]
            ).fetchone()[0]
        if left:
            raise StepFailed(f"{self.database} still exists")
        return "dropped"

    def empty_redis(self) -> str:
        keys = self.redis.dbsize()
        self.redis.flushdb()  # it was empty when the run began: every key is this run's
        return f"{keys} keys removed"

    def check_nothing_left(self) -> str:
        left = live_processes_with("SMOKE_RUN_ID", self.run_id)
        if left:
            raise StepFailed(f"still running: pids {', '.join(map(str, left))}")
        return "none"

    def remove_work(self) -> str:
        shutil.rmtree(self.work, ignore_errors=True)
        return str(self.work)

    def print_logs(self) -> None:
        if not self.services:
            return
        for service in self.services:
            print(f"----- {service.name} log (last lines) -----")
            print(tail(service.log_text()) or "(empty)")
        print("-----", flush=True)
