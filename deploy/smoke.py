"""Smoke test of the production configuration on this machine, without containers.

`make smoke` (or `python deploy/smoke.py`) runs `cms.settings.production` with a fresh secret key
against a throwaway PostgreSQL database and a Redis db of its own: check --deploy, migrate,
collectstatic, compilemessages, the seed in both languages and the translation roles; then
gunicorn (deploy/gunicorn.conf.py), one Celery worker and exactly one beat. Requests go in as
the TLS-terminating proxy sends them (X-Forwarded-Proto: https, the public Host). It publishes a
change as an editor, runs a sync through the worker against the recorded upstream responses
(tests/fixtures/, served by tests/sync/upstream.py) and checks that the API, cached in Redis,
shows both. Whatever happens, it stops everything it started, drops the database and empties
its Redis db. One line per step; on failure the step is named, the logs of gunicorn, the worker
and beat are printed, and the exit status is 1.

Environment:
  SMOKE_DATABASE_URL  a PostgreSQL server the throwaway `smoke_*` database is created on
                      (default: DATABASE_URL when it is PostgreSQL, else the local server)
  SMOKE_REDIS_URL     an empty Redis db the smoke test may use and flush
                      (default redis://127.0.0.1:6379/15)
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shelve
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import dj_database_url
import psycopg
import redis
import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the recorded upstream is the test suite's
from smoke_site import RESULT_MARKER  # noqa: E402  (deploy/, beside this script)

from tests.sync.upstream import SOURCES, Upstream  # noqa: E402

# Each source's base URL setting (cms/settings/base.py), pointed at the recorded stand-in.
API_URL_SETTINGS = {
    "dblp": "DBLP_API_URL",
    "crossref": "CROSSREF_API_URL",
    "openalex": "OPENALEX_API_URL",
    "semanticscholar": "SEMANTIC_SCHOLAR_API_URL",
}
PUBLIC_HOST = "cms.smoke.test"
PUBLIC_ORIGIN = f"https://{PUBLIC_HOST}"
CLIENT_ADDRESS = "203.0.113.7"  # what the proxy reports in X-Forwarded-For
DEFAULT_DATABASE_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/15"
SEED = ROOT / "cms" / "seed" / "digests.json"
LOG_TAIL_LINES = 60

# The digest whose title is changed and whose paper the recorded answers describe
# (tests/fixtures/dblp/toc_sigcomm2025.json, crossref/works_sigcomm.json).
DIGEST = "ByteScale"
SYNCED_AUTHORS = ["Hao Ge", "Junda Feng", "Qi Huang", "Xin Liu"]
SYNCED_DOI = "10.1145/3718958.3750471"
PAPERS_IN_RECORDINGS = 5  # ByteScale, Falcon, Crux, Swing, Acme


class StepFailed(Exception):
    """A check did not hold; the message says what was expected and what came instead."""


class Interrupted(BaseException):
    """SIGTERM or SIGINT: stop the steps, but still clean up."""


def _interrupt(signum: int, _frame: object) -> None:
    raise Interrupted(signal.Signals(signum).name)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def tail(text: str, lines: int = LOG_TAIL_LINES) -> str:
    return "\n".join(text.splitlines()[-lines:])


class Service:
    """A long-running process of the deployment, in its own process group, logging to a file."""

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


class ProxyClient:
    """HTTP as the TLS-terminating proxy forwards it: public Host, X-Forwarded-Proto/-For.

    Django marks its cookies Secure, which `requests` would not send back over the plain-HTTP
    hop to gunicorn, so the session's cookies are kept and sent here.
    """

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.cookies: dict[str, str] = {}
        self.set_cookies: dict[str, str] = {}  # raw Set-Cookie value by cookie name

    def request(self, method: str, path: str, *, https: bool = True, **kwargs) -> requests.Response:
        headers = {"Host": PUBLIC_HOST, "X-Forwarded-For": CLIENT_ADDRESS}
        if https:
            headers["X-Forwarded-Proto"] = "https"
        headers.update(kwargs.pop("headers", {}))
        response = requests.request(
            method,
            self.base_url + path,
            headers=headers,
            cookies=self.cookies,
            allow_redirects=False,
            timeout=30,
            **kwargs,
        )
        for cookie in response.cookies:
            self.cookies[cookie.name] = cookie.value
        for raw in response.raw.headers.getlist("Set-Cookie"):
            self.set_cookies[raw.split("=", 1)[0]] = raw
        return response

    def get_json(self, path: str) -> dict:
        response = self.request("GET", path)
        if response.status_code != 200:
            raise StepFailed(f"GET {path}: {response.status_code} {response.text[:300]}")
        return response.json()


class Smoke:
    """One smoke run: its work directory, database, Redis db, services and checks."""

    def __init__(self, database_server_url: str, redis_url: str) -> None:
        self.run_id = uuid.uuid4().hex[:10]
        self.database = f"smoke_{self.run_id}"
        self.server = dj_database_url.parse(database_server_url)
        self.redis_url = redis_url
        self.redis = redis.Redis.from_url(redis_url, socket_connect_timeout=3)
        self.redis_is_ours = False
        self.database_created = False
        self.work = Path(tempfile.mkdtemp(prefix=f"smoke-{self.run_id}-"))
        self.port = free_port()
        self.node = f"smoke-{self.run_id}@{socket.gethostname()}"
        self.upstream = Upstream()
        self.upstream_running = False
        self.services: list[Service] = []
        self.client = ProxyClient(f"http://127.0.0.1:{self.port}")
        self.editor = f"editor-{self.run_id}"
        self.editor_password = secrets.token_urlsafe(24)
        self.ids: dict[str, int] = {}

    # -- environment ---------------------------------------------------------------------------

    def admin_connection(self) -> psycopg.Connection:
        return psycopg.connect(
            host=self.server["HOST"] or "127.0.0.1",
            port=self.server["PORT"] or 5432,
            user=self.server["USER"] or "postgres",
            password=self.server["PASSWORD"] or None,
            dbname="postgres",
            autocommit=True,
            connect_timeout=5,
        )

    def database_url(self) -> str:
        user = self.server["USER"] or "postgres"
        auth = user + (f":{self.server['PASSWORD']}" if self.server["PASSWORD"] else "")
        host = self.server["HOST"] or "127.0.0.1"
        return f"postgres://{auth}@{host}:{self.server['PORT'] or 5432}/{self.database}"

    def env(self) -> dict[str, str]:
        """The environment of every process: what deploy/.env.example asks an operator for."""
        kept = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "VIRTUAL_ENV")
        env = {name: os.environ[name] for name in kept if name in os.environ}
        env.update(
            {
                "SMOKE_RUN_ID": self.run_id,  # marks every process this run started
                "PYTHONUNBUFFERED": "1",
                "DJANGO_SETTINGS_MODULE": "cms.settings.production",
                "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),
                "ALLOWED_HOSTS": PUBLIC_HOST,
                "CSRF_TRUSTED_ORIGINS": PUBLIC_ORIGIN,
                "WAGTAILADMIN_BASE_URL": PUBLIC_ORIGIN,
                "WAGTAILAPI_BASE_URL": PUBLIC_ORIGIN,
                "DATABASE_URL": self.database_url(),
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

    def manage(self, *args: str, timeout: float = 300) -> str:
        return self.python("manage.py", *args, timeout=timeout)

    def python(self, *args: str, timeout: float = 300) -> str:
        try:
            result = subprocess.run(
                [sys.executable, *args],
                cwd=ROOT,
                env=self._env,
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

    def site_action(self, *args: str, timeout: float = 300) -> dict:
        output = self.python("deploy/smoke_site.py", *args, timeout=timeout)
        lines = [line for line in output.splitlines() if line.startswith(RESULT_MARKER)]
        if not lines:
            raise StepFailed(f"smoke_site.py {args[0]} printed no result:\n{tail(output, 20)}")
        return json.loads(lines[-1].removeprefix(RESULT_MARKER))

    def start(self, name: str, *command: str) -> Service:
        service = Service(name, [sys.executable, *command], self._env, self.work / f"{name}.log")
        self.services.append(service)
        return service

    # -- steps ---------------------------------------------------------------------------------

    def steps(self) -> list[tuple[str, Callable[[], str | None]]]:
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
            ("HTTPS redirect, host check and security headers", self.check_https),
            ("static files: hashed and served by whitenoise", self.check_static),
            ("an editor signs in to the admin through the proxy", self.check_admin_login),
            ("the API serves the seed in both languages", self.check_seed_in_api),
            ("publish a change as an editor; the cached API shows it", self.check_publish),
            ("sync through the worker; the API shows the synced paper", self.check_sync),
            ("gunicorn, the worker and beat are still up", self.check_still_running),
        ]

    def preflight(self) -> str:
        try:
            with self.admin_connection() as connection:
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
        with self.admin_connection() as connection:
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
        output = self.manage("collectstatic", "--noinput")
        return output.strip().splitlines()[-1]

    def compilemessages(self) -> str:
        # The virtualenv sits inside the code directory; its packages ship compiled catalogs.
        self.manage("compilemessages", "--ignore=.venv/*", "--ignore=var/*", "-v", "0")
        compiled = ROOT / "locales" / "zh_Hant" / "LC_MESSAGES" / "django.mo"
        if not compiled.exists():
            raise StepFailed(f"{compiled} was not written")
        return str(compiled.relative_to(ROOT))

    def import_seed(self) -> str:
        self.manage("import_digests", "-v", "0")
        return SEED.name

    def setup_roles(self) -> str:
        return self.manage("setup_translation_roles").strip().splitlines()[-1]

    def start_upstream(self) -> str:
        self.upstream.__enter__()
        self.upstream_running = True
        return self.upstream.url("").rstrip("/")

    def start_web(self) -> str:
        web = self.start("gunicorn", "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "cms.wsgi")
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if not web.running():
                raise StepFailed(f"gunicorn exited with status {web.process.returncode}")
            with contextlib.suppress(requests.ConnectionError):
                # Probes come from the orchestrator over plain HTTP, to the pod's address.
                base = self.client.base_url
                if requests.get(f"{base}/healthz", timeout=5).status_code == 200:
                    ready = requests.get(f"{base}/readyz", timeout=5)
                    expected = {"database": "ok", "redis": "ok"}
                    if ready.status_code == 200 and ready.json()["checks"] == expected:
                        workers = web.log_text().count("Booting worker")
                        return f"http://127.0.0.1:{self.port}, {workers} workers, ready"
            time.sleep(0.3)
        raise StepFailed("gunicorn did not become ready within 90 s")

    def start_worker(self) -> str:
        worker = self.start(
            "worker", "-m", "celery", "-A", "sync", "worker", "-l", "INFO", "-c", "2",
            "-n", self.node,
        )  # fmt: skip
        worker.wait_for_log(" ready.", timeout=90)
        output = self.manage("worker_health", "--node", self.node, "--timeout", "5")
        if self.node not in output:
            raise StepFailed(f"worker_health did not name {self.node}: {output!r}")
        return output.strip().splitlines()[-1]

    def start_beat(self) -> str:
        self.beat_schedule = self.work / "celerybeat-schedule"
        beat = self.start(
            "beat", "-m", "celery", "-A", "sync", "beat", "-l", "INFO",
            "--schedule", str(self.beat_schedule), "--pidfile", str(self.work / "beat.pid"),
        )  # fmt: skip
        beat.wait_for_log("beat: Starting", timeout=60)
        beats = [s for s in self.services if s.name == "beat" and s.running()]
        if len(beats) != 1:
            raise StepFailed(f"{len(beats)} beats running, want exactly one")
        return f"schedule in {self.beat_schedule.name}"

    def check_https(self) -> str:
        plain = self.client.request("GET", "/api/v2/pages/", https=False)
        if plain.status_code != 301 or plain.headers.get("Location") != (
            f"{PUBLIC_ORIGIN}/api/v2/pages/"
        ):
            raise StepFailed(f"plain HTTP: {plain.status_code} {plain.headers.get('Location')}")
        foreign = self.client.request("GET", "/api/v2/pages/", headers={"Host": "evil.example"})
        if foreign.status_code != 400:
            raise StepFailed(f"a Host not in ALLOWED_HOSTS got {foreign.status_code}, want 400")
        secure = self.client.request("GET", "/api/v2/pages/")
        wanted = {
            "Strict-Transport-Security": "max-age=31536000; includeSubDomains; preload",
            "X-Content-Type-Options": "nosniff",
        }
        for name, value in wanted.items():
            if secure.headers.get(name) != value:
                raise StepFailed(f"{name}: {secure.headers.get(name)!r}, want {value!r}")
        for name in ("Content-Security-Policy", "X-Request-ID"):
            if not secure.headers.get(name):
                raise StepFailed(f"no {name} header on {secure.url}")
        return "http -> 301 https, foreign Host -> 400, HSTS + CSP + X-Request-ID"

    def check_static(self) -> str:
        login = self.client.request("GET", "/admin/login/")
        match = re.search(r"/static/wagtailadmin/css/core\.[0-9a-f]{12}\.css", login.text)
        if login.status_code != 200 or match is None:
            raise StepFailed(f"/admin/login/ ({login.status_code}) links no hashed core.css")
        css = self.client.request("GET", match.group(0), headers={"Accept-Encoding": "gzip"})
        if css.status_code != 200 or "immutable" not in css.headers.get("Cache-Control", ""):
            raise StepFailed(f"{match.group(0)}: {css.status_code} {css.headers}")
        return f"{match.group(0)} ({css.headers.get('Content-Encoding', 'identity')})"

    def check_admin_login(self) -> str:
        self.site_action("create-editor", self.editor)
        self.client.request("GET", "/admin/login/")
        if "csrftoken" not in self.client.cookies:
            raise StepFailed("the login page set no CSRF cookie")
        signed_in = self.client.request(
            "POST",
            "/admin/login/",
            data={
                "username": self.editor,
                "password": self.editor_password,
                "csrfmiddlewaretoken": self.client.cookies["csrftoken"],
            },
            headers={"Origin": PUBLIC_ORIGIN, "Referer": f"{PUBLIC_ORIGIN}/admin/login/"},
        )
        if signed_in.status_code != 302 or signed_in.headers.get("Location") != "/admin/":
            raise StepFailed(f"login POST: {signed_in.status_code}, {signed_in.text[:300]}")
        session = self.client.set_cookies.get("sessionid", "")
        if "Secure" not in session or "HttpOnly" not in session:
            raise StepFailed(f"session cookie not Secure and HttpOnly: {session!r}")
        dashboard = self.client.request("GET", "/admin/")
        if dashboard.status_code != 200 or self.editor not in dashboard.text:
            raise StepFailed(f"/admin/ after login: {dashboard.status_code}")
        return f"{self.editor} (Editors): dashboard 200, session cookie Secure; HttpOnly"

    def check_seed_in_api(self) -> str:
        seed = json.loads(SEED.read_text(encoding="utf-8"))
        digests = sum(len(topic["digests"]) for topic in seed["topics"])
        for locale in ("en", "zh-hant"):
            listing = self.client.get_json(
                f"/api/v2/pages/?type=digests.DigestPage&locale={locale}&limit=1"
            )
            if listing["meta"]["total_count"] != digests:
                raise StepFailed(
                    f"{locale}: {listing['meta']['total_count']} digests, the seed has {digests}"
                )
        found = self.client.get_json(
            f"/api/v2/pages/?type=digests.DigestPage&locale=en&short_name={DIGEST}&fields=paper"
        )["items"]
        if len(found) != 1:
            raise StepFailed(f"{len(found)} English digests named {DIGEST}")
        self.ids["en"], self.ids["paper"] = found[0]["id"], found[0]["paper"]["id"]
        translation = self.client.get_json(
            f"/api/v2/pages/?translation_of={self.ids['en']}&locale=zh-hant"
        )["items"]
        if len(translation) != 1:
            raise StepFailed(f"{DIGEST} has {len(translation)} zh-hant translations")
        self.ids["zh"] = translation[0]["id"]
        return f"{digests} digests in en and in zh-hant"

    def cached_api_keys(self) -> int:
        return sum(1 for _key in self.redis.scan_iter(match="*api-response*"))

    def check_publish(self) -> str:
        en, zh = f"/api/v2/pages/{self.ids['en']}/", f"/api/v2/pages/{self.ids['zh']}/"
        listing = f"/api/v2/pages/?type=digests.DigestPage&locale=en&short_name={DIGEST}"
        before = self.client.get_json(en)
        if self.client.get_json(zh)["translation_status"]["state"] != "up_to_date":
            raise StepFailed("the seeded zh-hant translation is not up to date")
        self.client.get_json(listing)
        if not self.cached_api_keys():
            raise StepFailed("no API response was cached in Redis")

        new_title = f"{before['title']} (revised {self.run_id})"
        draft_title = f"{before['title']} (draft {self.run_id})"
        published = self.site_action(
            "publish-title", DIGEST, "--title", new_title, "--draft-title", draft_title,
            "--as", self.editor,
        )  # fmt: skip
        if published["live_title"] != new_title or not published["has_unpublished_changes"]:
            raise StepFailed(f"after publishing: {published}")

        shown = self.client.get_json(en)["title"]
        listed = [item["title"] for item in self.client.get_json(listing)["items"]]
        if shown != new_title or listed != [new_title]:
            raise StepFailed(f"the API shows {shown!r} / {listed}, want {new_title!r}")
        status = self.client.get_json(zh)["translation_status"]["state"]
        if status != "out_of_date":
            raise StepFailed(f"zh-hant translation_status {status!r}, want 'out_of_date'")
        return "new title live in detail and listing, draft hidden, zh-hant out_of_date"

    def check_sync(self) -> str:
        paper_path = f"/api/v2/papers/{self.ids['paper']}/"
        pages = [f"/api/v2/pages/{self.ids[language]}/" for language in ("en", "zh")]
        unsynced = self.client.get_json(paper_path)
        if unsynced["authors"] or unsynced["provenance"]:
            raise StepFailed(f"{DIGEST}'s paper has authors before any sync: {unsynced}")
        for path in pages:
            self.client.get_json(path)  # cached until the sync's writes bump the version

        enqueued = self.manage("sync_papers", "--enqueue")
        task_ids = re.findall(r"^[0-9a-f]{8}-[0-9a-f-]{27}$", enqueued, flags=re.MULTILINE)
        if not task_ids:
            raise StepFailed(f"sync_papers --enqueue printed no task id: {enqueued!r}")
        task_id = task_ids[-1]
        run = self.site_action("wait-for-sync", task_id, "--timeout", "240", timeout=300)
        if run["status"] != "finished" or run["errors"]:
            raise StepFailed(f"sync run {run['run']}: {run['status']}, errors {run['errors']}")
        if run["papers_matched"] != PAPERS_IN_RECORDINGS:
            raise StepFailed(f"{run['papers_matched']} papers matched, want {PAPERS_IN_RECORDINGS}")
        worker_log = self.services_by_name()["worker"].log_text()
        if f"sync.tasks.sync_all[{task_id}]" not in worker_log:
            raise StepFailed(f"the worker's log does not show task {task_id}")
        asked = sorted(source for source in SOURCES if self.upstream.requests_to(source))
        if asked != sorted(SOURCES):
            raise StepFailed(f"only {asked} were asked")

        for path in [paper_path, *pages]:
            data = self.client.get_json(path)
            paper = data if path == paper_path else data["paper"]
            names = [author["name"] for author in paper["authors"]]
            if names != SYNCED_AUTHORS or paper["doi"] != SYNCED_DOI:
                raise StepFailed(f"{path}: authors {names}, DOI {paper['doi']}")
            authors = paper["provenance"].get("authors", {})
            if authors.get("source") != "dblp":
                raise StepFailed(f"{path}: provenance of authors {authors}")
            datetime.fromisoformat(authors["fetched_at"])
        requests_made = sum(run["requests"].values())
        return (
            f"run {run['run']}: {run['papers_matched']}/{run['papers_total']} matched, "
            f"{run['papers_changed']} changed, {requests_made} requests; authors from dblp"
        )

    def check_still_running(self) -> str:
        down = [service.name for service in self.services if not service.running()]
        if down:
            raise StepFailed(f"no longer running: {', '.join(down)}")
        return ", ".join(f"{s.name} (pid {s.process.pid})" for s in self.services)

    def services_by_name(self) -> dict[str, Service]:
        return {service.name: service for service in self.services}

    # -- clean-up ------------------------------------------------------------------------------

    def cleanup(self) -> list[tuple[str, Callable[[], str]]]:
        """Stop in reverse order of start, then remove what the run created."""
        actions = []
        grace = {"gunicorn": 40, "worker": 60, "beat": 20}
        for service in reversed(self.services):
            actions.append((f"stop {service.name}", lambda s=service: s.stop(grace[s.name])))
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
        with self.admin_connection() as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{self.database}" WITH (FORCE)')
            left = connection.execute(
                "SELECT count(*) FROM pg_database WHERE datname = %s", [self.database]
            ).fetchone()[0]
        if left:
            raise StepFailed(f"{self.database} still exists")
        return "dropped"

    def empty_redis(self) -> str:
        keys = self.redis.dbsize()
        self.redis.flushdb()
        return f"{keys} keys removed"

    def check_nothing_left(self) -> str:
        """No live process carries this run's SMOKE_RUN_ID (workers' children included)."""
        marker = f"SMOKE_RUN_ID={self.run_id}".encode()
        left = []
        for proc in Path("/proc").glob("[0-9]*"):
            with contextlib.suppress(OSError):
                state = (proc / "stat").read_text().rsplit(")", 1)[1].split()[0]
                if state != "Z" and marker in (proc / "environ").read_bytes().split(b"\0"):
                    left.append(proc.name)
        if left:
            raise StepFailed(f"still running: pids {', '.join(left)}")
        return "none"

    def remove_work(self) -> str:
        shutil.rmtree(self.work, ignore_errors=True)
        return str(self.work)

    # -- running -------------------------------------------------------------------------------

    def run(self) -> int:
        started = time.monotonic()
        self._env = self.env()
        steps = self.steps()
        print(
            f"smoke: cms.settings.production on PostgreSQL {self.database}, {self.redis_url}",
            flush=True,
        )
        failure = None
        try:
            for number, (title, action) in enumerate(steps, 1):
                label = f"[{number:2d}/{len(steps)}] {title}"
                failure = self._run_step(label, action)
                if failure:
                    failure = f"step {number} ({title}): {failure}"
                    break
        except Interrupted as signal_name:
            failure = f"interrupted by {signal_name}"
            print(f"\n{failure}", flush=True)
        if failure:
            self.print_logs()
        # Clean-up must finish: a second Ctrl-C or SIGTERM must not leave services behind.
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        cleanup_failures = []
        for title, action in self.cleanup():
            problem = self._run_step(f"[stop ] {title}", action)
            if problem:
                cleanup_failures.append(f"{title}: {problem}")
        seconds = time.monotonic() - started
        if failure or cleanup_failures:
            for problem in [failure, *cleanup_failures]:
                if problem:
                    print(f"smoke test FAILED at {problem}", flush=True)
            return 1
        print(f"smoke test passed in {seconds:.0f} s", flush=True)
        return 0

    @staticmethod
    def _run_step(label: str, action: Callable[[], str | None]) -> str | None:
        """Run one step on one line; the problem as text, or None when it held."""
        print(f"{label} ... ", end="", flush=True)
        started = time.monotonic()
        try:
            detail = action()
        except StepFailed as error:
            problem = str(error)
        except Exception as error:  # an unexpected error still names its step
            problem = f"{type(error).__name__}: {error}"
        else:
            took = time.monotonic() - started
            print(f"ok ({took:.1f} s)" + (f": {detail}" if detail else ""), flush=True)
            return None
        print("FAILED\n" + "\n".join(f"    {line}" for line in problem.splitlines()), flush=True)
        return problem

    def print_logs(self) -> None:
        for service in self.services:
            print(f"----- {service.name} log (last {LOG_TAIL_LINES} lines) -----")
            print(tail(service.log_text()) or "(empty)")
        print("-----", flush=True)


def database_server_url() -> str:
    explicit = os.environ.get("SMOKE_DATABASE_URL")
    if explicit:
        return explicit
    suite = os.environ.get("DATABASE_URL", "")
    return suite if suite.startswith(("postgres://", "postgresql://")) else DEFAULT_DATABASE_SERVER


def main() -> int:
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)
    smoke = Smoke(database_server_url(), os.environ.get("SMOKE_REDIS_URL", DEFAULT_REDIS_URL))
    return smoke.run()


if __name__ == "__main__":
    sys.exit(main())
