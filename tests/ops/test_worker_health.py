"""`manage.py worker_health` against a real worker on the real Redis broker.

The command is what compose's healthcheck and an orchestrator's exec probe run, so it is run
here as they do: a separate process, its exit status and its output.
"""

import socket
import subprocess
import sys
import uuid

import pytest

from tests.support.workers import ROOT

pytestmark = pytest.mark.integration


def worker_health(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "worker_health", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def node() -> str:
    return f"health-{uuid.uuid4().hex[:6]}@{socket.gethostname()}"


def test_exits_0_and_names_the_worker_that_answers(worker_pool, node):
    worker_pool.start(node=node)

    named = worker_health(worker_pool.env(), "--node", node)
    anyone = worker_health(worker_pool.env())

    assert named.returncode == 0, named.stderr
    assert named.stdout.strip() == f"Workers answering: {node}"
    assert anyone.returncode == 0, anyone.stderr
    assert node in anyone.stdout


def test_exits_1_when_the_named_node_does_not_answer(worker_pool, node):
    worker_pool.start(node=node)

    result = worker_health(worker_pool.env(), "--node", "celery@nowhere", "--timeout", "1")

    assert result.returncode == 1
    assert "No reply from celery@nowhere within 1.0 s." in result.stderr
    assert node not in result.stdout + result.stderr


def test_exits_1_when_no_worker_runs(worker_pool):
    result = worker_health(worker_pool.env(), "--timeout", "1")

    assert result.returncode == 1
    assert "No reply from any worker within 1.0 s." in result.stderr


def test_exits_1_when_the_broker_is_down(worker_pool, closed_port):
    env = worker_pool.env(REDIS_URL=f"redis://127.0.0.1:{closed_port}/0")

    result = worker_health(env, "--timeout", "1")

    assert result.returncode == 1
    assert "Cannot reach the broker:" in result.stderr
    assert "Connection refused" in result.stderr
