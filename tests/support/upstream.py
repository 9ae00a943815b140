"""The local stand-in upstream (tests.standin) for tests, with fresh politeness state around it."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from sync.politeness import reset_breakers, reset_pacing, reset_pauses
from sync.sources import get_sources
from tests.standin import Upstream, pointed_at


def serving_upstream(catalog, settings):
    """Fixture body: a local stand-in upstream answering from `catalog`, every source pointed
    at it, with the politeness state (pacing, breakers, pauses) fresh around it."""
    with fresh_politeness_state(), Upstream(catalog) as server:
        settings.SYNC_SOURCES = pointed_at(server, settings.SYNC_SOURCES)
        yield server


@contextmanager
def fresh_politeness_state() -> Iterator[None]:
    """No pacing, open breaker or pause left by an earlier test, and none left for the next."""
    reset_pacing()
    reset_breakers()
    reset_pauses()
    try:
        yield
    finally:
        reset_breakers()


def source(name: str):
    """The configured client of the source `name`."""
    return get_sources([name])[0]


def held_upstream(upstream) -> tuple[threading.Event, threading.Event]:
    """Every answer of `upstream` held until the returned `release` is set; `asked` is set once
    the first request arrived."""
    asked, release = threading.Event(), threading.Event()

    def hold(source, data):
        asked.set()
        release.wait(20)  # a bound, so a test that fails does not hang
        return data

    upstream.transform = hold
    return asked, release
