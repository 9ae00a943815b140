"""cms.ops.db.update_rows, the batched UPDATE behind the bulk page import and the sync's writes."""

import pytest
from django.db.models.signals import post_save, pre_save
from wagtail.models import Page

from cms.digests.models import DigestPage
from cms.ops.db import update_rows
from cms.papers.models import Paper

pytestmark = pytest.mark.django_db


def _papers(count: int) -> list[Paper]:
    return [
        Paper.objects.create(title=f"Paper {n}", venue="NSDI", year=2024, abstract=f"Abstract {n}")
        for n in range(count)
    ]


def test_writes_the_named_columns_of_each_row_and_nothing_else():
    papers = _papers(3)
    bystander = Paper.objects.create(title="Untouched", venue="ISCA", year=2023)
    for paper in papers:
        paper.title = f"New title {paper.pk}"
        paper.abstract = "set in memory, not written"
        paper.year = 1999
    update_rows(Paper, papers, ["title"])
    stored = Paper.objects.filter(pk__in=[p.pk for p in papers]).values_list(
        "pk", "title", "abstract", "year"
    )
    assert sorted(stored) == [
        (paper.pk, f"New title {paper.pk}", f"Abstract {n}", 2024) for n, paper in enumerate(papers)
    ]
    bystander.refresh_from_db()
    assert (bystander.title, bystander.year) == ("Untouched", 2023)


def test_values_are_prepared_by_their_field():
    """A JSON field's dict and a foreign key named by its field (written through `_id`)."""
    paper = _papers(1)[0]
    paper.provenance = {"title": {"source": "crossref", "fetched_at": "2025-01-02T03:04:05Z"}}
    paper.locked_fields = ["title", "doi"]
    update_rows(Paper, [paper], ["provenance", "locked_fields"])
    stored = Paper.objects.get(pk=paper.pk)
    assert stored.provenance == paper.provenance
    assert stored.locked_fields == ["title", "doi"]

    page = DigestPage.objects.filter(live_revision__isnull=False).first()
    other = DigestPage.objects.exclude(pk=page.pk).filter(live_revision__isnull=False).first()
    page.live_revision = other.live_revision
    update_rows(Page, [page], ["live_revision"])
    assert Page.objects.get(pk=page.pk).live_revision_id == other.live_revision_id


def test_specific_pages_update_their_base_row_only():
    """Rows of a model below Page write Page's table by its primary key; their own table stays."""
    page = DigestPage.objects.filter(locale__language_code="en").first()
    summary = page.summary
    page.title = "A title written through the base table"
    page.summary = "set in memory, not written"
    update_rows(Page, [page], ["title"])
    stored = DigestPage.objects.get(pk=page.pk)
    assert stored.title == "A title written through the base table"
    assert stored.summary == summary


def test_sends_no_model_signals():
    papers = _papers(2)
    sent = []

    def record(sender, **kwargs):
        sent.append(sender)

    pre_save.connect(record, weak=False)
    post_save.connect(record, weak=False)
    try:
        for paper in papers:
            paper.title += " (edited)"
        update_rows(Paper, papers, ["title"])
    finally:
        pre_save.disconnect(record)
        post_save.disconnect(record)
    assert sent == []
    assert Paper.objects.filter(title__endswith=" (edited)").count() == 2


def test_many_rows_are_one_query(django_assert_num_queries):
    papers = _papers(5)
    for paper in papers:
        paper.abstract = "batched"
    with django_assert_num_queries(1):
        update_rows(Paper, papers, ["abstract"])
    assert Paper.objects.filter(abstract="batched").count() == 5


def test_no_rows_make_no_query(django_assert_num_queries):
    with django_assert_num_queries(0):
        update_rows(Paper, [], ["title"])


def test_writes_to_the_database_the_router_picks(settings):
    picked = []

    class Router:
        def db_for_write(self, model, **hints):
            picked.append(model)
            return "default"

    settings.DATABASE_ROUTERS = [Router()]
    paper = _papers(1)[0]
    picked.clear()
    paper.title = "Routed"
    update_rows(Paper, [paper], ["title"])
    assert picked == [Paper]
    assert Paper.objects.get(pk=paper.pk).title == "Routed"
