"""The dashboard's sync panel: per source over 30 days, the numbers the runs' rows hold."""

from collections import Counter
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from cms.digests.models import DigestPage
from cms.translation.policy.roles import EDITORS, TRANSLATORS
from sync import tasks
from sync.dashboard import SyncActivityPanel
from sync.models import PaperChange, SourceRequests, SyncError, SyncRun
from sync.sources import display_name
from tests.standin import SOURCES, Canned
from tests.support.dashboard import chart_table, dashboard_html, panel_ids, panel_queries
from tests.support.users import member

from .recorded import FIXTURES

pytestmark = pytest.mark.django_db

TRUNCATED = (FIXTURES / "errors" / "truncated.json").read_bytes()


def paper(short_name: str):
    return DigestPage.objects.get(locale__language_code="en", short_name=short_name).paper


def expected_by_source(since) -> dict[str, dict[str, str]]:
    """The panel's numbers worked out another way: from each run in the window, in Python."""
    requests, changed, errors = Counter(), {}, Counter()
    for run in SyncRun.objects.filter(started_at__gte=since):
        requests.update(run.requests)
        for change in run.changes.all():
            changed.setdefault(change.source, set()).add(change.paper_id)
        errors.update(error["source"] for error in run.errors)
    return {
        name: {
            "Requests": str(requests[name]),
            "Papers changed": str(len(changed.get(name, ()))),
            "Errors": str(errors[name]),
        }
        for name in SOURCES
    }


def shown_by_source(html: str) -> dict[str, dict[str, str]]:
    charts = {
        "Requests": chart_table(html, "sync-activity-requests"),
        "Papers changed": chart_table(html, "sync-activity-papers-changed"),
        "Errors": chart_table(html, "sync-activity-errors"),
    }
    return {
        name: {measure: rows[display_name(name)][measure] for measure, rows in charts.items()}
        for name in SOURCES
    }


@pytest.fixture
def admin_user(db):
    return get_user_model().objects.create_superuser("root", "root@example.com", "pw")


def test_numbers_match_the_runs_after_a_sync_and_a_failed_one(upstream, client, admin_user):
    # Outside the window: a run 31 days old, whose rows must not count.
    old = SyncRun.objects.create(kind=SyncRun.Kind.PAPERS, status=SyncRun.Status.FINISHED)
    SourceRequests.objects.create(run=old, source="crossref", requests=1000)
    SyncError.objects.create(run=old, source="crossref", message="long ago")
    SyncRun.objects.filter(pk=old.pk).update(started_at=timezone.now() - timedelta(days=31))

    assert tasks.sync_all.delay().get().startswith("started run")
    upstream.fail_next("crossref", Canned(200, TRUNCATED, "application/json"))
    assert tasks.sync_paper.delay(paper("ByteScale").pk).get() == "error"

    html = dashboard_html(client, admin_user)
    since = timezone.now() - timedelta(days=30)
    shown = shown_by_source(html)
    assert shown == expected_by_source(since)
    # What the recorded catalog makes of the seed: five papers matched, the failed one's
    # Crossref error, and every source asked.
    assert shown["crossref"]["Errors"] == "1"
    assert all(int(numbers["Requests"]) > 0 for numbers in shown.values())
    changed = PaperChange.objects.values_list("paper_id", flat=True).distinct().count()
    assert 0 < max(int(numbers["Papers changed"]) for numbers in shown.values()) <= changed
    # The last run is the failed paper's, linked, with its status.
    last = SyncRun.objects.order_by("-started_at", "-pk").first()
    assert f"/admin/sync/runs/{last.pk}/" in html
    assert last.error_count == 1


def test_a_constant_number_of_queries(upstream, admin_user):
    tasks.sync_all.delay().get()
    small = panel_queries(SyncActivityPanel(), admin_user)
    # Ten times the runs, with requests, changes and errors.
    runs = [
        SyncRun.objects.create(kind=SyncRun.Kind.PAPERS, status=SyncRun.Status.FINISHED)
        for _ in range(10)
    ]
    some_paper = paper("ByteScale")
    for run in runs:
        SourceRequests.objects.bulk_create(
            SourceRequests(run=run, source=name, requests=7) for name in SOURCES
        )
        SyncError.objects.create(run=run, paper=some_paper, source="openalex", message="HTTP 503")
        PaperChange.objects.create(run=run, paper=some_paper, field="title", source="dblp")
    assert panel_queries(SyncActivityPanel(), admin_user) == small


def test_for_editors_and_admins_not_translators(client, admin_user):
    editor = member(EDITORS, "editor")
    translator = member(TRANSLATORS, "translator")
    assert "sync-activity" in panel_ids(dashboard_html(client, editor))
    assert "sync-activity" in panel_ids(dashboard_html(client, admin_user))
    assert "sync-activity" not in panel_ids(dashboard_html(client, translator))
    # Before any run, the panel says so rather than showing a status.
    assert "No sync has run yet." in dashboard_html(client, editor)
