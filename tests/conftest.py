"""Suite-wide fixtures: the seed content is imported once per test database.

Tests run inside a transaction that is rolled back, so each one starts from the seeded site;
tests that must commit (live servers, worker subprocesses) take `committed_seed` instead.
Also here: the Redis broker and real Celery workers (tests/support/workers.py), shared by the sync
and ops integration tests, and where the production smoke test (tests/deploy/test_smoke.py)
runs.
"""

import uuid

import pytest
import redis
import yaml
from celery import Celery
from django.conf import settings
from django.core.management import call_command

from tests.support.seed_snapshot import restore_database, serialize_database
from tests.support.upstream import serving_upstream
from tests.support.workers import REDIS_URL, Workers
from tests.sync.recorded import lookup_catalog

SMOKE_NOT_RUN = pytest.StashKey[int]()


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    with django_db_blocker.unblock():
        call_command("import_digests", verbosity=0)


@pytest.fixture(scope="session")
def seeded_snapshot(django_db_setup, django_db_blocker) -> str:
    """The seeded database as JSON, taken once (importing the seed again if it was flushed)."""
    from cms.digests.models import DigestPage

    with django_db_blocker.unblock():
        if not DigestPage.objects.exists():
            call_command("import_digests", verbosity=0)
        return serialize_database()


@pytest.fixture
def committed_seed(transactional_db, seeded_snapshot):
    """The seeded site, committed, for a transactional test (flushed again after it)."""
    restore_database(seeded_snapshot)


@pytest.fixture
def seed_path():
    from cms.seed.parse import DEFAULT_SEED_PATH

    return DEFAULT_SEED_PATH


@pytest.fixture
def broker():
    """The Redis broker (it must answer), a fresh queue, and a producer app for it."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
    client.ping()  # fails the test loudly when Redis is down: .ci/run starts it
    for pattern in ("sync:breaker:*", "sync:pause:*", "sync:pace:*"):  # nothing left from before
        for key in client.scan_iter(pattern):
            client.delete(key)
    # Not the current app: the project's shared tasks (webhook deliveries, syncs) must keep
    # resolving to the project's app in the tests that follow.
    producer = Celery("sync-tests", broker=REDIS_URL, backend=REDIS_URL, set_as_current=False)
    queue = f"sync-test-{uuid.uuid4().hex[:8]}"
    yield producer, queue
    client.delete(queue)
    producer.close()


@pytest.fixture
def worker_pool(broker, tmp_path):
    """Workers on the broker's queue, started by the test; all killed afterwards."""
    _producer, queue = broker
    pool = Workers(queue, tmp_path)
    try:
        yield pool
    finally:
        pool.stop_all()


def suite_uses_postgresql() -> bool:
    return settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


def pytest_collection_modifyitems(config, items):
    """The smoke test runs in the PostgreSQL pass only, where PostgreSQL is known to be there.

    It starts the production settings on a throwaway PostgreSQL database of its own whatever
    the suite's database is, so in the SQLite pass it would repeat the same run for nothing (and
    make `make test` on SQLite need PostgreSQL). `-m smoke` runs it in any pass.
    """
    if suite_uses_postgresql() or "smoke" in (config.option.markexpr or ""):
        return
    smoke = [item for item in items if item.get_closest_marker("smoke")]
    if smoke:
        items[:] = [item for item in items if not item.get_closest_marker("smoke")]
        config.hook.pytest_deselected(items=smoke)
        config.stash[SMOKE_NOT_RUN] = len(smoke)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if config.stash.get(SMOKE_NOT_RUN, 0):
        terminalreporter.write_line(
            "smoke test (deploy/smoke/) not run on SQLite: it runs in the PostgreSQL pass "
            "(DATABASE_URL=postgres://... make test, as .ci/run does), with -m smoke, "
            "or as make smoke"
        )


@pytest.fixture
def unreachable_broker(settings):
    """A broker is configured but nothing answers at its address (Redis restarting): tasks are
    sent for real by the project's Celery app, which fails to connect. The app's own settings
    are restored afterwards (read first: the app loads them from Django's on first use)."""
    from cms.celery import app
    from tests.support.workers import free_port

    before = {"broker_url": app.conf.broker_url, "task_always_eager": app.conf.task_always_eager}
    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.update(broker_url=f"redis://127.0.0.1:{free_port()}/0", task_always_eager=False)
    app.close()  # no producer pool connected to an earlier address
    yield
    app.conf.update(before)
    app.close()


@pytest.fixture
def uncached_api(settings):
    """The API views themselves: no response cache, no cached visibility facts (tests/apicache
    covers both). Their versions move on commit, which never comes inside a rolled-back test."""
    settings.API_RESPONSE_CACHE_SECONDS = 0


@pytest.fixture
def cached_api(settings):
    """The API's caches on, as in production (the test settings keep their default lifetime)."""
    settings.API_RESPONSE_CACHE_SECONDS = 600


@pytest.fixture(autouse=True)
def empty_default_cache():
    """Each test's database is rolled back, so the cache (cached API responses, the content
    version, Wagtail's site root paths) must not outlive it either."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def default_language():
    """A request leaves its language active on the thread (Django's LocaleMiddleware does not
    reset it), so each test starts and ends in the default language, as a new process would."""
    from django.conf import settings
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def lookup_upstream(settings):
    """The local stand-in upstream with the papers editors look up (recorded.lookup_catalog)."""
    yield from serving_upstream(lookup_catalog(), settings)


@pytest.fixture(scope="session")
def openapi():
    """The shipped OpenAPI description, to check real requests and responses against."""
    from openapi_core import OpenAPI

    from cms.api.schema import SCHEMA_PATH

    return OpenAPI.from_dict(yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8")))


@pytest.fixture
def conforms(client, openapi):
    """GET a URL and check the request and the response against the description."""
    from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

    def get(path: str, expected_status: int = 200, **params):
        response = client.get(path, params)
        assert response.status_code == expected_status, response.content
        request = DjangoOpenAPIRequest(response.wsgi_request)
        if expected_status < 400:  # bad requests are sent on purpose
            openapi.validate_request(request)
        openapi.validate_response(request, DjangoOpenAPIResponse(response))
        return response

    return get
