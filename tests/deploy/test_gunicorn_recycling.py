"""gunicorn recycles its workers (max_requests) without failing a request.

gunicorn runs with deploy/gunicorn.conf.py, its workers recycled every few dozen requests,
while clients send requests back to back on keep-alive sessions, as a proxy or a front end's
server does; every request must get its answer, none a reset or a closed connection.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

import pytest
import requests

from tests.support.workers import ROOT, free_port, wait_for

pytestmark = pytest.mark.integration

CLIENTS = 6
SECONDS = 20


def test_recycling_workers_under_keep_alive_load_fails_no_request(tmp_path):
    port = free_port()
    log = tmp_path / "gunicorn.log"
    env = {key: value for key, value in os.environ.items() if not key.startswith("PYTEST")}
    env.update(
        DJANGO_SETTINGS_MODULE="cms.settings.test",
        GUNICORN_BIND=f"127.0.0.1:{port}",
        WEB_CONCURRENCY="2",
        GUNICORN_MAX_REQUESTS="40",
        GUNICORN_MAX_REQUESTS_JITTER="40",
    )
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "-c", "deploy/gunicorn.conf.py", "cms.wsgi"],
        cwd=ROOT,
        env=env,
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    url = f"http://127.0.0.1:{port}/healthz"
    try:
        wait_for(lambda: _answers(url) or server.poll() is not None, 60, "gunicorn to start")
        assert server.poll() is None, log.read_text()[-3000:]
        answered, failed = [], []
        stop = time.monotonic() + SECONDS

        def client() -> None:
            with requests.Session() as session:  # one keep-alive connection, reused
                while time.monotonic() < stop:
                    try:
                        # A proxy's read timeout (nginx: 60 s): a request may wait in the
                        # listen queue while a recycled worker's successor loads the code.
                        response = session.get(url, timeout=60)
                        (answered if response.status_code == 200 else failed).append(response)
                    except requests.RequestException as error:
                        failed.append(error)

        threads = [threading.Thread(target=client) for _ in range(CLIENTS)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(SECONDS + 90)
    finally:
        server.terminate()
        server.wait(timeout=30)
    recycled = log.read_text().count("Autorestarting worker")
    print(f"{len(answered)} answered, {len(failed)} failed, workers recycled {recycled} times")
    assert failed == [], [repr(f)[:300] for f in failed[:3]]
    assert recycled >= 3, "the workers were not recycled often enough to tell"


def _answers(url: str) -> bool:
    try:
        return requests.get(url, timeout=2).status_code == 200
    except requests.RequestException:
        return False
