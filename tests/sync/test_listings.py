"""A listing (a proceedings' table of contents) is fetched by one process; the others wait."""

from __future__ import annotations

import threading
import time

import pytest
from django.core.cache import cache

from sync.errors import SourceError
from sync.listings import listing_is_shared, shared_listing


def test_one_caller_fetches_while_the_others_wait_for_its_answer():
    calls = []

    def fetch():
        calls.append(threading.get_ident())
        time.sleep(0.3)
        return ["the table of contents"]

    results = []
    threads = [
        threading.Thread(target=lambda: results.append(shared_listing("run-1:dblp:toc", fetch)))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert len(calls) == 1
    assert results == [["the table of contents"]] * 4
    assert listing_is_shared("run-1:dblp:toc") and not listing_is_shared("run-2:dblp:toc")


def test_a_failed_fetch_is_not_kept():
    def failing():
        raise SourceError("dblp: HTTP 503")

    with pytest.raises(SourceError):
        shared_listing("run-3:dblp:toc", failing)
    assert not listing_is_shared("run-3:dblp:toc")
    assert shared_listing("run-3:dblp:toc", lambda: ["now it works"]) == ["now it works"]


def test_a_dead_holders_lock_runs_out_within_its_ttl(settings):
    """A process killed while fetching leaves its lock; the others take over within the TTL,
    not after SYNC_LISTING_WAIT."""
    settings.SYNC_LOCK_TTL = 1
    settings.SYNC_LISTING_WAIT = 300
    cache.add("sync:listing:run-4:dblp:toc:lock", 1, timeout=1)  # its holder is gone
    started = time.monotonic()
    assert shared_listing("run-4:dblp:toc", lambda: ["fetched by a survivor"]) == [
        "fetched by a survivor"
    ]
    assert time.monotonic() - started < 30


def test_a_live_holder_keeps_its_lock_past_the_ttl(settings):
    settings.SYNC_LOCK_TTL = 1
    calls = []

    def slow_fetch():
        calls.append(1)
        time.sleep(2.5)  # longer than the lock lives unless renewed
        return ["toc"]

    threads = [
        threading.Thread(target=shared_listing, args=("run-5:dblp:toc", slow_fetch))
        for _ in range(3)
    ]
    for thread in threads:
        thread.start()
        time.sleep(0.2)
    for thread in threads:
        thread.join(timeout=20)
    assert len(calls) == 1


def test_without_the_cache_each_process_fetches_for_itself(settings, closed_port):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{closed_port}/0",
        }
    }
    assert shared_listing("run-6:dblp:toc", lambda: ["fetched unshared"]) == ["fetched unshared"]
    assert not listing_is_shared("run-6:dblp:toc")
