"""Sync fixtures: the local upstream, and settings pointing every source at it."""

from __future__ import annotations

import pytest

from sync.sources import dummy
from tests.standin import SOURCES
from tests.support.upstream import fresh_politeness_state, serving_upstream
from tests.support.workers import RedisServer, free_port

from .recorded import recorded_catalog


@pytest.fixture
def upstream(settings):
    """A running local upstream; every source's base URL points at it."""
    yield from serving_upstream(recorded_catalog(), settings)


@pytest.fixture
def fresh_politeness():
    """For tests of the source clients themselves: no pacing or breaker state across tests."""
    with fresh_politeness_state():
        yield


@pytest.fixture
def closed_port() -> int:
    return free_port()


@pytest.fixture
def own_redis(tmp_path):
    """A redis-server of this test's own (tests/support/workers.py), which the test may restart."""
    server = RedisServer(tmp_path).start()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def dummy_sources(settings):
    """The in-memory fake as every source (named like the real ones, so precedence applies)."""
    settings.SYNC_SOURCES = {
        name: {"CLASS": "sync.sources.dummy.DummySource", "OPTIONS": {}} for name in SOURCES
    }
    dummy.clear()
    yield dummy
    dummy.clear()


@pytest.fixture(autouse=True)
def _fresh_api_cache():
    """API responses cached by earlier tests (under a version only commits bump) do not leak in."""
    from django.core.cache import cache

    cache.clear()
