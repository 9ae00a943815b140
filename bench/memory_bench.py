"""Translation memory lookups for a 5,000-page site: exact and fuzzy, per segment.

Part of `make bench` (bench/backend.py, after the scenario is built) and on its own, on a
throwaway SQLite database, with `make bench-memory` (`python -m bench.memory_bench`). The memory
gets ten published segments per zh-hant page (title, summary, eight paragraphs), all distinct;
each lookup is what the "Memory and glossary" panel does per segment: the exact match from the
database, then the fuzzy matches from the in-process index.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from .report import Figure

PAGES = int(os.environ.get("BENCH_MEMORY_PAGES", "5000"))
SEGMENTS_PER_PAGE = 10
LOOKUPS = 200
TARGET_MS = 100.0

_SUBJECTS = [
    "congestion control",
    "load balancing",
    "collective communication",
    "the scale-up domain",
    "all-to-all traffic",
    "packet spraying",
    "expert parallelism",
    "checkpointing",
]


def english_segment(page: int, segment: int) -> str:
    subject = _SUBJECTS[(page + segment) % len(_SUBJECTS)]
    return (
        f"Paragraph {segment} of digest {page:05d} explains how {subject} behaves when "
        f"{page % 97} jobs share {segment + 2} links, and what the measurements show."
    )


def chinese_segment(page: int, segment: int) -> str:
    return (
        f"導讀 {page:05d} 的第 {segment} 段說明 {page % 97} 個任務"
        f"共用 {segment + 2} 條鏈路時的行為。"
    )


def fill_memory(pages: int = PAGES) -> int:
    """MemoryEntry rows as publishing `pages` translated pages would leave them."""
    from wagtail.models import Locale, Page

    from cms.terminology.memory import memory_changed, source_hash
    from cms.terminology.models import MemoryEntry

    zh, _created = Locale.objects.get_or_create(language_code="zh-hant")
    page_ids = list(Page.objects.filter(locale=zh).values_list("pk", flat=True)[:pages])
    if not page_ids:
        page_ids = list(Page.objects.values_list("pk", flat=True)[:1])
    MemoryEntry.objects.filter(context__startswith="bench.").delete()
    rows = []
    for page in range(pages):
        for segment in range(SEGMENTS_PER_PAGE):
            text = english_segment(page, segment)
            rows.append(
                MemoryEntry(
                    locale=zh,
                    page_id=page_ids[page % len(page_ids)],
                    context=f"bench.{page}.{segment}",
                    source_hash=source_hash(text),
                    source_text=text,
                    target_text=chinese_segment(page, segment),
                )
            )
    MemoryEntry.objects.bulk_create(rows, batch_size=2000)
    memory_changed()
    return len(rows)


def measure(pages: int = PAGES) -> list[Figure]:
    from wagtail.models import Locale

    from cms.terminology import memory

    entries = fill_memory(pages)
    zh = Locale.objects.get(language_code="zh-hant")
    started = time.perf_counter()
    memory.fuzzy_matches(zh, english_segment(0, 0))  # builds the in-process index once
    build_ms = (time.perf_counter() - started) * 1000
    timings, exact_ms = [], []
    for number in range(LOOKUPS):
        page, segment = (number * 37) % pages, number % SEGMENTS_PER_PAGE
        text = english_segment(page, segment)
        if number % 2:  # half near-identical sentences, which only the fuzzy search finds
            text = text.replace("what the measurements show", "what the measurement shows")
        started = time.perf_counter()
        exact = memory.exact_matches(zh, [text])
        middle = time.perf_counter()
        fuzzy = memory.fuzzy_matches(zh, text)
        timings.append((time.perf_counter() - started) * 1000)
        exact_ms.append((middle - started) * 1000)
        if not (exact or fuzzy):
            raise AssertionError(f"no match for {text!r}")
    timings.sort()
    median = statistics.median(timings)
    p90 = timings[int(len(timings) * 0.9) - 1]
    return [
        Figure(
            name=f"translation memory lookup, {pages:,} pages ({entries:,} segments)",
            unit="ms",
            value=round(median, 2),
            p90=round(p90, 2),
            target=f"< {TARGET_MS:.0f} ms per segment",
            holds=p90 < TARGET_MS,
            note=(
                f"exact + fuzzy per segment (exact alone {statistics.median(exact_ms):.1f} ms);"
                f" index built once in {build_ms:.0f} ms"
            ),
        )
    ]


def main() -> None:
    """On its own: a throwaway SQLite database, migrated, the memory filled, the figure printed."""
    with tempfile.TemporaryDirectory() as work:
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "bench.settings")
        os.environ["BENCH_DATABASE_URL"] = f"sqlite:///{Path(work) / 'memory.sqlite3'}"
        os.environ.setdefault("VAR_DIR", work)
        import django

        django.setup()
        from .backend import migrate_from_template

        root = Path(__file__).resolve().parent.parent
        migrate_from_template(root / "var" / "bench" / "templates")
        for figure in measure():
            print(figure.line(), file=sys.stdout)


if __name__ == "__main__":
    main()
