"""The dashboard's "Papers that need a person": notices nobody acknowledged, sync errors that
waiting will not fix; shown while there is any, each paper leading to its editor."""

from collections import Counter

import pytest
from bs4 import BeautifulSoup
from django.contrib.auth import get_user_model
from django.utils import timezone

from cms.digests.models import DigestPage
from cms.papers.models import PaperNotice
from cms.translation.policy.roles import EDITORS, TRANSLATORS
from sync import tasks
from sync.dashboard import PapersNeedingAPersonPanel
from sync.models import PaperSyncState
from tests.standin import Canned
from tests.support.dashboard import chart_table, dashboard_html, panel_ids, panel_queries
from tests.support.factories import PaperFactory
from tests.support.users import member

from .recorded import FIXTURES

pytestmark = pytest.mark.django_db

PANEL = "papers-needing-a-person"
PAPERS_PANEL = PANEL
TRUNCATED = (FIXTURES / "errors" / "truncated.json").read_bytes()
HTML_502 = (FIXTURES / "errors" / "502.html").read_bytes()


def paper(short_name: str):
    return DigestPage.objects.get(locale__language_code="en", short_name=short_name).paper


def notice(paper, update_type: str, label: str, **fields) -> PaperNotice:
    return PaperNotice.objects.create(
        paper=paper,
        notice_doi=f"10.5555/{update_type}.{paper.pk}",
        update_type=update_type,
        label=label,
        source=PaperNotice.Source.PUBLISHER,
        **fields,
    )


def expected_rows() -> dict[str, str]:
    """The chart's rows worked out notice by notice and state by state."""
    open_notices = PaperNotice.objects.filter(acknowledged_at__isnull=True)
    papers_by_label = {}
    for row in open_notices:
        papers_by_label.setdefault(row.label, set()).add(row.paper_id)
    rows = {label: str(len(papers)) for label, papers in papers_by_label.items()}
    stuck = [
        state
        for state in PaperSyncState.objects.all()
        if state.failed_attempts > 0 and state.not_before is None
    ]
    if stuck:
        rows["Sync error, not retried automatically"] = str(len(stuck))
    return rows


@pytest.fixture
def editor(db):
    return member(EDITORS, "editor")


def test_numbers_and_papers_match_after_notices_and_a_sync(upstream, client, editor):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    assert PAPERS_PANEL not in panel_ids(dashboard_html(client, editor))  # nothing yet

    retracted, corrected = paper("ByteScale"), paper("FabricPerf")
    notice(retracted, "retraction", "Retraction")
    notice(retracted, "correction", "Correction")
    notice(corrected, "correction", "Correction")
    notice(
        paper("Swing"),
        "correction",
        "Correction",
        acknowledged_at=timezone.now(),
        acknowledged_by=admin,
    )
    # A sync of a new paper whose Crossref answer cannot be used (not retried: listed), and one
    # of the retracted paper while Crossref and OpenAlex are down (retried automatically: its
    # error is not listed, its notices still are).
    stuck, retried = PaperFactory(title="A stuck paper", doi="10.5555/stuck"), retracted
    upstream.fail_next("crossref", Canned(200, TRUNCATED, "application/json"))
    assert tasks.sync_paper.delay(stuck.pk).get() == "error"
    upstream.fail_next("crossref", *[Canned(503, HTML_502, "text/html")] * 10)
    upstream.fail_next("openalex", *[Canned(503, HTML_502, "text/html")] * 10)
    assert tasks.sync_paper.delay(retried.pk).get() == "error"
    retried_state = PaperSyncState.objects.get(paper=retried)
    assert retried_state.failed_attempts == 1 and retried_state.not_before is not None

    html = dashboard_html(client, editor)
    table = {label: cells["Papers"] for label, cells in chart_table(html, PANEL).items()}
    assert table == expected_rows()
    assert table == {
        "Correction": "2",
        "Retraction": "1",
        "Sync error, not retried automatically": "1",
    }
    soup = BeautifulSoup(html, "html.parser")
    panel = soup.select_one(f"#{PAPERS_PANEL}-section")
    assert "3 papers have an update notice" in panel.get_text(" ", strip=True)
    # Each paper leads to its snippet editor.
    edit = "/admin/snippets/papers/paper/edit/{}/"
    notice_links = {a["href"] for a in panel.select("[data-papers-notices] a")}
    assert notice_links == {edit.format(retracted.pk), edit.format(corrected.pk)}
    error_links = [a["href"] for a in panel.select("[data-papers-errors] a")]
    assert edit.format(stuck.pk) in error_links
    assert edit.format(retried.pk) not in error_links
    assert Counter(
        a.get_text() for a in panel.select("[data-papers-notices] td:first-child a")
    ) == {
        retracted.title: 2,
        corrected.title: 1,
    }


PAPERS_PANEL = PANEL


def test_gone_once_everything_is_acknowledged(client, editor):
    row = notice(paper("ByteScale"), "retraction", "Retraction")
    assert PAPERS_PANEL in panel_ids(dashboard_html(client, editor))
    PaperNotice.objects.filter(pk=row.pk).update(acknowledged_at=timezone.now())
    assert PAPERS_PANEL not in panel_ids(dashboard_html(client, editor))


def test_for_those_who_edit_papers_not_translators(client, editor):
    notice(paper("ByteScale"), "retraction", "Retraction")
    translator = member(TRANSLATORS, "translator")
    assert PAPERS_PANEL in panel_ids(dashboard_html(client, editor))
    assert PAPERS_PANEL not in panel_ids(dashboard_html(client, translator))


def test_a_constant_number_of_queries(editor):
    notice(paper("ByteScale"), "retraction", "Retraction")
    small = panel_queries(PapersNeedingAPersonPanel(), editor)
    for number in range(30):
        extra = PaperFactory()
        notice(
            extra,
            ("correction", "retraction")[number % 2],
            ("Correction", "Retraction")[number % 2],
        )
        PaperSyncState.objects.create(paper=extra, failed_attempts=1, last_error=f"Error {number}.")
    assert panel_queries(PapersNeedingAPersonPanel(), editor) == small
