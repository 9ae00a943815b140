"""A listing (a proceedings' table of contents) is fetched by one process; the others wait."""

from __future__ import annotations

import threading
import time

import pytest

from sync.listings import listing_is_shared, shared_listing
from sync.sources.base import SourceError


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
