"""The production smoke test (deploy/smoke/) passes on this machine and leaves nothing behind.

It creates its own `smoke_*` database on the suite's PostgreSQL server, so it runs in the
PostgreSQL pass only (tests/conftest.py says why). Its Redis db is SMOKE_REDIS_URL (default db 15).
"""

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import dj_database_url
import psycopg
import pytest
import redis

pytestmark = [pytest.mark.integration, pytest.mark.smoke]

ROOT = Path(__file__).resolve().parents[2]
DEFAULT_SERVER = "postgres://postgres@127.0.0.1:5432/postgres"
STEP = re.compile(r"^\[\s*(\d+)/(\d+)\] (.+?) \.\.\. (ok|FAILED)", re.MULTILINE)
KEY_STEPS = [
    "manage.py check --deploy",
    "manage.py import_digests (the seed, en + zh-hant)",
    "start gunicorn; /healthz and /readyz",
    "start one Celery worker; manage.py worker_health",
    "start exactly one Celery beat",
    "publish a change as an editor; the cached API shows it",
    "sync through the worker; the API shows the synced paper",
]
CLEAN_UP = [
    "stop beat",
    "beat's schedule",
    "stop worker",
    "stop gunicorn",
    "nothing this run started is left running",
]


def database_server() -> str:
    suite = os.environ.get("DATABASE_URL", "")
    return suite if suite.startswith(("postgres://", "postgresql://")) else DEFAULT_SERVER


def database_exists(server_url: str, name: str) -> bool:
    server = dj_database_url.parse(server_url)
    with psycopg.connect(
        host=server["HOST"] or "127.0.0.1",
        port=server["PORT"] or 5432,
        user=server["USER"] or "postgres",
        password=server["PASSWORD"] or None,
        dbname="postgres",
    ) as connection:
        row = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return row.fetchone() is not None


def run_smoke(env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess:
    """Run `python -m deploy.smoke`; past the timeout, SIGTERM lets it clean up first."""
    command = [sys.executable, "-m", "deploy.smoke"]
    with subprocess.Popen(
        command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    ) as process:
        try:
            stdout, stderr = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.send_signal(signal.SIGTERM)
            stdout, stderr = process.communicate(timeout=180)
            pytest.fail(f"the smoke test took over {timeout:.0f} s:\n{stdout[-8000:]}{stderr}")
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def test_smoke_run_passes_and_cleans_up():
    server = database_server()
    redis_url = os.environ.get("SMOKE_REDIS_URL", "redis://127.0.0.1:6379/15")
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env.update(SMOKE_DATABASE_URL=server, SMOKE_REDIS_URL=redis_url)

    result = run_smoke(env)

    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-8000:]
    steps = STEP.findall(result.stdout)
    assert steps, output
    total = int(steps[0][1])
    assert [int(number) for number, *_ in steps] == list(range(1, total + 1)), output
    assert all(status == "ok" for *_, status in steps), output
    titles = {title for _n, _t, title, _s in steps}
    assert set(KEY_STEPS) <= titles, output
    for title in CLEAN_UP:
        assert re.search(rf"^\[stop \] {re.escape(title)} \.\.\. ok", result.stdout, re.M), output
    assert re.search(r"^smoke test passed in \d+ s$", result.stdout, re.MULTILINE), output

    database = re.search(r"on PostgreSQL (smoke_[0-9a-f]+),", result.stdout).group(1)
    assert f"[stop ] drop database {database} ... ok" in result.stdout
    assert not database_exists(server, database)
    assert redis.Redis.from_url(redis_url).dbsize() == 0
