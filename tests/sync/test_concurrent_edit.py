"""An editor's save during a sync: the sync never overwrites it with what it planned before."""

import threading

import pytest
from django.db import connection

from cms.digests.models import DigestPage
from cms.papers.models import Paper
from sync import services

pytestmark = pytest.mark.django_db(transaction=True)


def retitle(source, data):
    """DBLP now calls Falcon "FALCON 2": a sync would write that title."""
    if source == "dblp":
        for hit in data["result"]["hits"]["hit"]:
            hit["info"]["title"] = hit["info"]["title"].replace("Falcon:", "FALCON 2:")
    return data


def test_an_editor_saving_while_a_sync_plans_keeps_their_locked_title(
    committed_seed, upstream, monkeypatch
):
    falcon = DigestPage.objects.get(locale__language_code="en", short_name="Falcon").paper
    services.sync_batch(paper_ids=[falcon.pk], run=None)  # its DBLP key, to be found again by
    upstream.transform = retitle
    planned, saved = threading.Event(), threading.Event()
    plan_changes = services.plan_changes

    def plan_then_let_the_editor_save(*args, **kwargs):
        changes = plan_changes(*args, **kwargs)
        planned.set()
        # The editor saves now, between this plan and its write. A sync that holds the paper
        # keeps the save waiting until its write commits; one that does not lets it land first.
        saved.wait(3)
        return changes

    def editor_saves():
        try:
            paper = Paper.objects.get(pk=falcon.pk)
            paper.title = "Falcon (editor's title)"
            paper.locked_fields = ["title"]
            paper.save()
            saved.set()
        finally:
            connection.close()

    monkeypatch.setattr(services, "plan_changes", plan_then_let_the_editor_save)
    editor = threading.Thread(target=lambda: planned.wait(20) and editor_saves())
    editor.start()
    outcome = services.sync_batch(paper_ids=[falcon.pk], run=None)
    editor.join(30)

    assert planned.is_set() and saved.is_set() and not outcome.errors
    assert "title" in {change.field for change in outcome.plans[falcon.pk]}  # it did plan one
    falcon.refresh_from_db()
    assert falcon.title == "Falcon (editor's title)"
    assert falcon.locked_fields == ["title"]
    assert falcon.authors.count() == 3  # the rest of the sync was written
