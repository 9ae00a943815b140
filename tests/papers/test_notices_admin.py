"""The report of retracted and corrected papers: who sees it, what it lists and filters, its
exports, and Acknowledge (a POST that records who and when, refused to anyone else)."""

import csv
import io

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from cms.digests.models import DigestPage
from cms.papers.models import PaperNotice
from cms.translation.policy.roles import EDITORS, TRANSLATORS, ensure_roles
from tests.support.notices import CONCERN, CORRECTION, RETRACTION, add_notice
from tests.support.users import member

pytestmark = pytest.mark.django_db

REPORT = "/admin/reports/paper-notices/"


@pytest.fixture
def notices():
    """A retraction and an expression of concern of Odin's paper, a correction of another."""
    odin = DigestPage.objects.get(short_name="Odin", locale__language_code="en").paper
    other = DigestPage.objects.exclude(paper=odin).filter(locale__language_code="en").first()
    return {
        "retraction": add_notice(odin, RETRACTION),
        "concern": add_notice(odin, CONCERN),
        "correction": add_notice(other.paper, CORRECTION),
    }


@pytest.fixture
def editor(db):
    ensure_roles()
    return member(EDITORS, "editor", email="editor@example.com")


@pytest.fixture
def translator(db):
    ensure_roles()
    return member(TRANSLATORS, "translator", email="translator@example.com")


def signed_in(user, **kwargs) -> Client:
    client = Client(**kwargs)
    client.force_login(user)
    return client


def listed(response) -> list[PaperNotice]:
    assert response.status_code == 200
    return list(response.context["object_list"])


def test_the_url_has_the_name_the_dashboard_links_to():
    assert reverse("papers_notices_report") == REPORT


def test_an_editor_finds_the_report_in_the_reports_menu(editor, notices):
    client = signed_in(editor)
    admin_home = client.get("/admin/").content.decode()
    assert REPORT in admin_home
    response = client.get(REPORT)
    page = response.content.decode()
    assert "Retracted and corrected papers" in page
    # Not yet acknowledged first, newest first; each row names the paper, type, source, notice.
    rows = listed(response)
    assert {row.pk for row in rows} == {notice.pk for notice in notices.values()}
    retraction = notices["retraction"]
    assert retraction.paper.title in page
    assert "https://doi.org/10.1016/s0140-6736(10)60175-4" in page
    assert "Retraction Watch" in page and "Expression of concern" in page
    assert reverse("wagtailsnippets_papers_paper:edit", args=[retraction.paper_id]) in page
    assert page.count("data-notice-acknowledge>") == 3


def test_the_report_speaks_chinese_to_a_chinese_editor(editor, notices):
    from wagtail.users.models import UserProfile

    profile = UserProfile.get_for_user(editor)
    profile.preferred_language = "zh-hant"
    profile.save()
    page = signed_in(editor).get(REPORT).content.decode()
    assert "撤稿與更正的論文" in page
    assert "關注聲明" in page and "撤稿" in page


def test_filters_by_type_and_acknowledged(editor, notices):
    client = signed_in(editor)
    retractions = listed(client.get(REPORT, {"update_type": "retraction"}))
    assert [n.pk for n in retractions] == [notices["retraction"].pk]
    PaperNotice.objects.filter(pk=notices["concern"].pk).update(acknowledged_at="2026-01-01T00:00Z")
    waiting = listed(client.get(REPORT, {"acknowledged": "false"}))
    assert {n.pk for n in waiting} == {notices["retraction"].pk, notices["correction"].pk}
    done = listed(client.get(REPORT, {"acknowledged": "true"}))
    assert [n.pk for n in done] == [notices["concern"].pk]
    # The results fragment the filters reload answers the same.
    results = client.get(reverse("papers_notices_report_results"), {"update_type": "correction"})
    assert [n.pk for n in listed(results)] == [notices["correction"].pk]
    # Its Acknowledge comes back to the whole report as filtered, not to the fragment.
    back = f'name="next" value="{REPORT}?update_type=correction"'
    assert back in results.content.decode()


def test_acknowledge_records_who_and_when_and_goes_back(editor, notices):
    client = signed_in(editor)
    retraction = notices["retraction"]
    url = reverse("papers_notice_acknowledge", args=[retraction.pk])
    response = client.post(url, {"next": f"{REPORT}?acknowledged=false"})
    assert response.status_code == 302 and response["Location"] == f"{REPORT}?acknowledged=false"
    retraction.refresh_from_db()
    assert retraction.acknowledged_by == editor and retraction.acknowledged_at is not None
    first = retraction.acknowledged_at
    # Once: a second press keeps the first acknowledgement.
    client.post(url)
    retraction.refresh_from_db()
    assert retraction.acknowledged_at == first
    page = client.get(REPORT).content.decode()
    assert page.count("data-notice-acknowledge>") == 2
    assert "by editor" in page
    # Elsewhere than this site is not followed.
    response = client.post(
        reverse("papers_notice_acknowledge", args=[notices["concern"].pk]),
        {"next": "https://evil.example/"},
    )
    assert response["Location"] == REPORT


def test_an_attacker_without_the_permission_gets_403_and_nothing_changes(
    translator, editor, notices
):
    retraction = notices["retraction"]
    url = reverse("papers_notice_acknowledge", args=[retraction.pk])
    # Signed in to the admin, without papers.change_paper: the report and the action refuse.
    attacker = signed_in(translator)
    refused = attacker.get(REPORT)  # Wagtail's answer: back to the dashboard, with a message
    assert refused.status_code == 302 and refused["Location"] == "/admin/"
    assert REPORT not in attacker.get("/admin/").content.decode()
    assert attacker.post(url).status_code == 403
    # Not signed in: sent to the login page.
    assert Client().post(url).status_code == 302
    # An editor's session, posted from another site without the CSRF token: refused.
    forged = signed_in(editor, enforce_csrf_checks=True)
    assert forged.post(url).status_code == 403
    # And a GET does nothing.
    assert signed_in(editor).get(url).status_code == 405
    retraction.refresh_from_db()
    assert retraction.acknowledged_at is None and retraction.acknowledged_by is None
    assert (
        signed_in(editor).post(reverse("papers_notice_acknowledge", args=[99999])).status_code
        == 404
    )


@pytest.mark.parametrize("export", ["csv", "xlsx"])
def test_exports(editor, notices, export):
    retraction = notices["retraction"]
    signed_in(editor).post(reverse("papers_notice_acknowledge", args=[retraction.pk]))
    response = signed_in(editor).get(REPORT, {"export": export})
    assert response.status_code == 200
    body = b"".join(response.streaming_content if response.streaming else [response.content])
    if export == "csv":
        rows = list(csv.reader(io.StringIO(body.decode("utf-8"))))
    else:
        sheet = load_workbook(io.BytesIO(body)).active
        rows = [["" if cell is None else str(cell) for cell in row] for row in sheet.values]
    header, *rows = rows
    assert header[:4] == ["Paper", "Paper DOI", "Type", "Label"]
    assert len(rows) == 3
    by_type = {row[2]: row for row in rows}
    assert by_type["retraction"][0] == retraction.paper.title
    assert by_type["retraction"][4] == "Retraction Watch"
    assert by_type["retraction"][5] == "10.1016/s0140-6736(10)60175-4"
    assert by_type["retraction"][-1] == "editor"  # acknowledged by
    assert by_type["correction"][-1] == ""
