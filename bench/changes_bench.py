"""`make bench`'s changes stage (`BENCH_STAGES=changes`): what the changes feed saves a consumer.

On the scenario's site (5,000 digests a language), after the log is brought in line with the
pages (`rebuild_changes`: the benchmark bulk-adds most pages behind the importer's back, so
their rows are written here; timed), a consumer's cursor is taken, then ten writes are made as
editors and the worker make them: five digests published again, two unpublished, one deleted,
one made private, one paper synced. The figure is the time to learn of them from the feed
(`changes/?locale=en&since=CURSOR`, one request) against the time to re-crawl the English
listing (`pages/?locale=en&limit=100&offset=...`, every page of it), both on the views
themselves (no response cache) and both over HTTP to the same gunicorn server; target < 1/10.
Also: the feed's answer warm (from the response cache), and what logging costs a writer
(`changes.log_write`, inside the writer's transaction) per publish and per 50-paper sync chunk.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from statistics import median
from typing import Any

from .load import fetch, summary
from .report import Figure
from .server import Server

ROUNDS = 5
OURS_CACHED = "/api/v2/"
OURS_UNCACHED = "/bench/uncached/"
CRAWL = "pages/?locale=en&limit=100&offset={offset}"
SYNC_CHUNK = 50  # papers a sync transaction writes (sync/services.py)


def measure(server: Server) -> list[Figure]:
    from cms.apicache import changes

    figures = [rebuild_figure(changes)]
    log_seconds: dict[str, list[float]] = {"publish": [], "sync": []}
    timed = timing(changes, log_seconds)
    cursor = changes.head_cursor()
    ten_writes(timed)
    delta_path = f"changes/?locale=en&since={cursor}"
    delta = fetch(server.base_url + OURS_UNCACHED + delta_path)
    assert delta.status == 200, delta.body[:300]
    items = json.loads(delta.body)["items"]
    server.wait_idle()

    crawl = crawl_seconds(server, OURS_UNCACHED)  # also warms every process for the crawl
    samples = {"delta": [], "delta warm": [], "crawl": [crawl["seconds"]]}
    for _round in range(ROUNDS):
        samples["delta"].append(fetch(server.base_url + OURS_UNCACHED + delta_path).seconds)
        samples["delta warm"].append(fetch(server.base_url + OURS_CACHED + delta_path).seconds)
    for _round in range(ROUNDS - 1):
        samples["crawl"].append(crawl_seconds(server, OURS_UNCACHED)["seconds"])
    stats = {name: summary([s * 1000 for s in values]) for name, values in samples.items()}
    ratio = stats["delta"]["median"] / stats["crawl"]["median"]
    figures.append(
        Figure(
            name="changes feed: a delta of 10 writes vs a full listing crawl (en)",
            unit="ms",
            value=stats["delta"]["median"],
            p90=stats["delta"]["p90"],
            baseline=stats["crawl"]["median"],
            baseline_name=f"crawl, {crawl['requests']} requests",
            ratio=ratio,
            target="< 1/10 of the crawl",
            holds=ratio < 1 / 10,
            note=f"{len(items)} items ({crawl['pages']} pages crawled); "
            f"delta {len(delta.body):,} bytes, crawl {crawl['bytes']:,} bytes; "
            f"warm (response cache) p50 {stats['delta warm']['median']:.1f} ms",
        )
    )
    chunk = sync_chunk(timed, log_seconds)
    publish = [round(seconds * 1000, 1) for seconds in log_seconds["publish"]]
    figures += [
        Figure(
            name="change log: log_write per publish",
            unit="ms",
            value=median(log_seconds["publish"]) * 1000,
            target="(no target)",
            note=f"inside the writer's transaction; samples {publish}",
        ),
        Figure(
            name="change log: log_write per 50-paper sync chunk",
            unit="ms",
            value=median(log_seconds["sync"]) * 1000,
            target="(no target)",
            note=f"one UPDATE: {chunk} digests (both languages) moved to the chunk's number",
        ),
    ]
    return figures


def rebuild_figure(changes) -> Figure:
    from cms.apicache.models import PageChange

    started = time.perf_counter()
    changes.rebuild()
    seconds = time.perf_counter() - started
    rows = PageChange.objects.count()
    return Figure(
        name="rebuild_changes: the log of the whole site",
        unit="s",
        value=seconds,
        target="(no target)",
        note=f"{rows:,} pages in the log",
    )


def timing(changes, log_seconds: dict[str, list[float]]) -> Callable[[str], Any]:
    """A context in which changes.log_write's time counts under a name (stale.record calls
    it through the module, so wrapping the module's function sees every write)."""
    from contextlib import contextmanager

    original = changes.log_write
    current: list[str] = []

    def wrapped(*args, **kwargs):
        started = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            if current:
                log_seconds[current[-1]].append(time.perf_counter() - started)

    changes.log_write = wrapped

    @contextmanager
    def counting(name: str):
        current.append(name)
        try:
            yield
        finally:
            current.pop()

    return counting


def english_digests(count: int, *, imported: bool) -> list:
    """Live English digests: the importer's (with revisions and translations), or the bulk
    path's."""
    from cms.digests.models import DigestPage

    pages = DigestPage.objects.live().filter(locale__language_code="en")
    pages = pages.filter(latest_revision__isnull=not imported)
    return list(pages.order_by("pk")[:count])


def ten_writes(timed) -> None:
    from django.db import transaction
    from django.db.models import F
    from wagtail.models import PageViewRestriction

    from cms.papers.models import Paper
    from cms.papers.signals import papers_changed

    edited = english_digests(5, imported=True)
    first_unpublished, second_unpublished, deleted, private, synced = english_digests(
        5, imported=False
    )
    for number, page in enumerate(edited):
        with transaction.atomic(), timed("publish"):
            page.title = f"{page.title} (revised {number})"
            page.save_revision().publish()
    for page in (first_unpublished, second_unpublished):
        with transaction.atomic():
            page.unpublish()
    with transaction.atomic():
        deleted.delete()
    with transaction.atomic():
        PageViewRestriction.objects.create(page=private, restriction_type=PageViewRestriction.LOGIN)
    with transaction.atomic():
        Paper.objects.filter(pk=synced.paper_id).update(year=F("year"))
        papers_changed.send(sender=Paper, paper_ids=[synced.paper_id])


def sync_chunk(timed, log_seconds: dict[str, list[float]]) -> int:
    """One sync transaction's worth of papers changed, as the worker announces them."""
    from django.db import transaction
    from django.db.models import F

    from cms.digests.models import DigestPage
    from cms.papers.models import Paper
    from cms.papers.signals import papers_changed

    ids = list(
        DigestPage.objects.live()
        .filter(locale__language_code="en")
        .order_by("-pk")
        .values_list("paper_id", flat=True)[:SYNC_CHUNK]
    )
    with transaction.atomic(), timed("sync"):
        Paper.objects.filter(pk__in=ids).update(year=F("year"))
        papers_changed.send(sender=Paper, paper_ids=ids)
    return DigestPage.objects.filter(paper_id__in=ids).count()


def crawl_seconds(server: Server, prefix: str) -> dict[str, Any]:
    """Every page of the English listing, one request after another, as a mirror re-crawls."""
    seconds, offset, requests, pages, size = 0.0, 0, 0, 0, 0
    while True:
        response = fetch(server.base_url + prefix + CRAWL.format(offset=offset))
        assert response.status == 200, response.body[:300]
        data = json.loads(response.body)
        seconds += response.seconds
        requests += 1
        pages += len(data["items"])
        size += len(response.body)
        offset += 100
        if offset >= data["meta"]["total_count"] or not data["items"]:
            return {"seconds": seconds, "requests": requests, "pages": pages, "bytes": size}
