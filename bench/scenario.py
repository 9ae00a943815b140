"""The benchmark scenario: synthetic bilingual digests, each with a paper with six authors.

Everything generated here is marked as synthetic: titles start with "[Synthetic]" / "[合成]" and
slugs with "synthetic-", so the data can never be mistaken for the real seed.

The first digests go through the real importer (`import_digests`, with wagtail-localize
translations, as the seed import does) and that import is timed; the rest of the 5,000 per
language are added by `bulk_add_topics`, which writes the same page rows (pages, tree paths,
translation keys, locales, search index) without revisions or localize segments, which the API
never reads.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

DIGESTS_PER_TOPIC = 100
SEARCH_TERMS = {"en": "congestion", "zh-hant": "壅塞"}

_EN_SUBJECTS = [
    "packet scheduling",
    "RDMA transport",
    "load balancing",
    "flow control",
    "GPU collectives",
    "storage replication",
    "kernel bypass",
    "telemetry sampling",
    "cache partitioning",
    "consensus batching",
    "tail latency",
    "switch buffers",
    "memory disaggregation",
]
_ZH_SUBJECTS = [
    "封包排程",
    "RDMA 傳輸",
    "負載平衡",
    "流量控制",
    "GPU 集體通訊",
    "儲存複寫",
    "核心旁路",
    "遙測取樣",
    "快取分割",
    "共識批次",
    "尾延遲",
    "交換器緩衝區",
    "記憶體解耦",
]
_VENUES = ["SIGCOMM", "NSDI", "ISCA", "EuroSys"]


def synthetic_digest(number: int) -> dict[str, Any]:
    """Digest `number` in the seed-file format; about 2/7 mention congestion, 3/20 壅塞."""
    en_subject = _EN_SUBJECTS[number % len(_EN_SUBJECTS)]
    zh_subject = _ZH_SUBJECTS[number % len(_ZH_SUBJECTS)]
    en_title = f"[Synthetic] System {number:05d}: rethinking {en_subject} at scale"
    en_summary = (
        f"Synthetic benchmark digest {number}: explain how the system changes {en_subject}, "
        "what its evaluation measures, and where it stops helping."
    )
    if number % 7 == 0:
        en_title = f"[Synthetic] System {number:05d}: {en_subject} under congestion"
    elif number % 7 == 3:
        en_summary += " It pays special attention to congestion in shared fabrics."
    zh_title = f"[合成] 系統 {number:05d}:大規模{zh_subject}的再思考"
    zh_summary = (
        f"合成基準導讀 {number}:說明這個系統如何改變{zh_subject}、"
        "評估量測什麼,以及它在哪裡不再有幫助。"
    )
    if number % 20 == 5:
        zh_title = f"[合成] 系統 {number:05d}:{zh_subject}遇上網路壅塞"
    if number % 10 == 0:
        zh_summary += "文中特別說明共享網路中的壅塞如何拉長尾延遲。"
    return {
        "short_name": f"Synthetic-{number:05d}",
        "venue": _VENUES[number % len(_VENUES)],
        "year": 2024 + number % 3,
        "track": None,
        "reading_minutes": 5 + number % 20,
        "title": {"en": en_title, "zh-hant": zh_title},
        "summary": {"en": en_summary, "zh-hant": zh_summary},
        "affiliations": [f"Synthetic University {number % 37}", f"Synthetic Lab {number % 11}"],
    }


def synthetic_topic(number: int) -> dict[str, Any]:
    first = number * DIGESTS_PER_TOPIC
    return {
        "name": {"en": f"[Synthetic] Topic {number:03d}", "zh-hant": f"[合成] 主題 {number:03d}"},
        "digests": [synthetic_digest(first + offset) for offset in range(DIGESTS_PER_TOPIC)],
    }


def synthetic_seed(topics: Iterable[int]) -> dict[str, Any]:
    return {
        "site": {
            "title": {"en": "[Synthetic] Research digests", "zh-hant": "[合成] 研究導讀"},
            "intro": {"en": "Synthetic benchmark content.", "zh-hant": "合成的基準測試內容。"},
        },
        "topics": [synthetic_topic(number) for number in topics],
    }


def write_seed(path: Path, topics: Iterable[int]) -> Path:
    path.write_text(json.dumps(synthetic_seed(topics), ensure_ascii=False), encoding="utf-8")
    return path


# -- bulk path (needs Django set up) -----------------------------------------------------------


def _page_row(model, *, parent, number: int, locale, translation_key, title: str, slug: str):
    from django.contrib.contenttypes.models import ContentType
    from django.utils import timezone
    from wagtail.models import Page

    depth = parent.depth + 1
    now = timezone.now()
    return Page(
        title=title,
        draft_title=title,
        slug=slug,
        content_type=ContentType.objects.get_for_model(model),
        path=Page._get_path(parent.path, depth, number),
        depth=depth,
        numchild=0,
        url_path=f"{parent.url_path}{slug}/",
        live=True,
        has_unpublished_changes=False,
        first_published_at=now,
        last_published_at=now,
        locale=locale,
        translation_key=translation_key,
    )


def _insert_specific(model, pages, values: list[dict]) -> list:
    """Insert the model's own table rows for already-inserted base Page rows."""
    from django.db import connection

    objs = [
        model(page_ptr_id=page.pk, title=page.title, **extra)
        for page, extra in zip(pages, values, strict=True)
    ]
    for obj in objs:
        if hasattr(obj, "compute_search_text"):  # the denormalised search column (save() does it)
            obj.search_text = obj.compute_search_text()
    fields = list(model._meta.local_concrete_fields)
    batch = max(1, connection.ops.bulk_batch_size(fields, objs))
    for start in range(0, len(objs), batch):
        model._base_manager._insert(objs[start : start + batch], fields=fields)
    return objs


def bulk_add_topics(topic_numbers: list[int]) -> None:
    """Add synthetic topics and their digests in both languages, mirroring the importer's tree."""
    import uuid

    from django.db import transaction
    from wagtail.models import Locale, Page

    from cms.digests.models import DigestIndexPage, DigestPage, TopicPage
    from cms.papers.models import Paper, PaperAffiliation

    from .synthetic_papers import synthetic_paper

    en = Locale.objects.get(language_code="en")
    zh = Locale.objects.get(language_code="zh-hant")
    index_en = DigestIndexPage.objects.get(locale=en)
    index_zh = DigestIndexPage.objects.get(locale=zh)

    with transaction.atomic():
        topics = [synthetic_topic(number) for number in topic_numbers]
        keys = [uuid.uuid4() for _ in topics]
        topic_rows = {}
        for lang, locale, index in (("en", en, index_en), ("zh-hant", zh, index_zh)):
            start = index.numchild
            rows = [
                _page_row(
                    TopicPage,
                    parent=index,
                    number=start + offset + 1,
                    locale=locale,
                    translation_key=key,
                    title=topic["name"][lang],
                    slug=f"synthetic-topic-{number:03d}",
                )
                for offset, (number, topic, key) in enumerate(
                    zip(topic_numbers, topics, keys, strict=True)
                )
            ]
            Page.objects.bulk_create(rows)
            _insert_specific(TopicPage, rows, [{"intro": "", "finish_first": ""}] * len(rows))
            Page.objects.filter(pk=index.pk).update(numchild=start + len(rows))
            topic_rows[lang] = rows

        papers = [
            paper_row(synthetic_paper(number_of(digest)))
            for topic in topics
            for digest in topic["digests"]
        ]
        Paper.objects.bulk_create(papers, batch_size=500)
        PaperAffiliation.objects.bulk_create(
            [
                PaperAffiliation(paper=paper, name=name, sort_order=order)
                for paper, digest in zip(
                    papers, [d for t in topics for d in t["digests"]], strict=True
                )
                for order, name in enumerate(digest["affiliations"])
            ],
            batch_size=1000,
        )

        paper_iter = iter(papers)
        digest_keys = [[uuid.uuid4() for _ in topic["digests"]] for topic in topics]
        paper_for = [[next(paper_iter) for _ in topic["digests"]] for topic in topics]
        for lang, locale in (("en", en), ("zh-hant", zh)):
            rows, values = [], []
            for topic, parent, keys_, papers_ in zip(
                topics, topic_rows[lang], digest_keys, paper_for, strict=True
            ):
                for offset, (digest, key, paper) in enumerate(
                    zip(topic["digests"], keys_, papers_, strict=True)
                ):
                    rows.append(
                        _page_row(
                            DigestPage,
                            parent=parent,
                            number=offset + 1,
                            locale=locale,
                            translation_key=key,
                            title=digest["title"][lang],
                            slug=digest["short_name"].lower(),
                        )
                    )
                    values.append(
                        {
                            "short_name": digest["short_name"],
                            "reading_minutes": digest["reading_minutes"],
                            "summary": digest["summary"][lang],
                            "paper_id": paper.pk,
                        }
                    )
            Page.objects.bulk_create(rows, batch_size=500)
            _insert_specific(DigestPage, rows, values)
            for parent, topic in zip(topic_rows[lang], topics, strict=True):
                Page.objects.filter(pk=parent.pk).update(numchild=len(topic["digests"]))


def number_of(digest: dict[str, Any]) -> int:
    """The digest number in a synthetic short name ("Synthetic-00042" -> 42)."""
    return int(digest["short_name"].rsplit("-", 1)[1])


def paper_row(paper):
    """The Paper row the site holds before any sync: what an editor enters (no synced fields)."""
    from cms.papers.models import Paper

    return Paper(
        title=paper.title,
        venue=paper.venue,
        year=paper.year,
        doi=paper.doi,
        dblp_key=paper.dblp_key,
    )


def author_rows(paper_id: int, paper) -> list:
    """Its six authors as entered: names only, no ORCIDs or affiliations yet."""
    from cms.papers.models import PaperAuthor

    return [
        PaperAuthor(
            paper_id=paper_id, sort_order=order, name=a.name, given=a.given, family=a.family
        )
        for order, a in enumerate(paper.authors)
    ]


def complete_papers() -> int:
    """Give every synthetic digest's paper its identifiers and, if it has none, its six authors.

    Papers made by `import_digests` carry only what the seed file has (title, venue, year);
    after this step every paper looks like `synthetic_paper()` says the site knows it.
    """
    from cms.digests.models import DigestPage
    from cms.papers.models import Paper, PaperAuthor

    from .synthetic_papers import synthetic_paper

    numbers = {
        paper_id: number_of({"short_name": short_name})
        for short_name, paper_id in DigestPage.objects.filter(
            locale__language_code="en", short_name__startswith="Synthetic-"
        ).values_list("short_name", "paper_id")
    }
    papers = list(Paper.objects.filter(pk__in=numbers))
    for paper in papers:
        known = synthetic_paper(numbers[paper.pk])
        paper.doi, paper.dblp_key = known.doi, known.dblp_key
    Paper.objects.bulk_update(papers, ["doi", "dblp_key"], batch_size=500)
    with_authors = set(PaperAuthor.objects.values_list("paper_id", flat=True).distinct())
    missing = [pk for pk in numbers if pk not in with_authors]
    PaperAuthor.objects.bulk_create(
        [row for pk in missing for row in author_rows(pk, synthetic_paper(numbers[pk]))],
        batch_size=1000,
    )
    return len(missing)


def create_papers(numbers: Iterable[int]) -> int:
    """Only the papers of digests `numbers` (no pages): what the sync benchmark needs."""
    from django.db import transaction

    from cms.papers.models import Paper, PaperAffiliation, PaperAuthor

    from .synthetic_papers import synthetic_paper

    known = [synthetic_paper(number) for number in numbers]
    with transaction.atomic():
        rows = Paper.objects.bulk_create([paper_row(paper) for paper in known], batch_size=500)
        PaperAuthor.objects.bulk_create(
            [a for row, paper in zip(rows, known, strict=True) for a in author_rows(row.pk, paper)],
            batch_size=1000,
        )
        PaperAffiliation.objects.bulk_create(
            [
                PaperAffiliation(paper=row, name=name, sort_order=order)
                for row, paper in zip(rows, known, strict=True)
                for order, name in enumerate(synthetic_digest(paper.number)["affiliations"])
            ],
            batch_size=1000,
        )
    return len(rows)


def rebuild_search_index() -> None:
    """Index every page and paper, as `update_index` does, for the stock search baseline."""
    from django.core.management import call_command

    call_command("update_index", verbosity=0)
