"""An editor opens the report of retracted and corrected papers from the admin's menu, filters it
by type, and acknowledges a retraction, in a real browser; screenshots in
test-artifacts/notices_report/."""

import pytest

from cms.digests.models import DigestPage
from cms.papers.models import PaperNotice
from cms.translation.policy.roles import EDITORS, ensure_roles
from tests.support.notices import CONCERN, CORRECTION, RETRACTION, add_notice
from tests.support.users import member

from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "notices_report"


def test_an_editor_opens_filters_and_acknowledges(
    new_browser_page,  # noqa: F811
    seeded_live_server,
    screenshot,
    axe_violations,
):
    ensure_roles()
    editor = member(EDITORS, "editor", password="editor")
    odin = DigestPage.objects.get(short_name="Odin", locale__language_code="en").paper
    other = DigestPage.objects.filter(locale__language_code="en").exclude(paper=odin)[0].paper
    retraction = add_notice(odin, RETRACTION)
    add_notice(odin, CONCERN)
    add_notice(other, CORRECTION)

    page = new_browser_page()
    log_in(page, "editor")
    page.get_by_role("button", name="Reports").click()
    reports = page.get_by_role("list", name="Reports")
    reports.get_by_role("link", name="Retracted and corrected papers").click()
    page.wait_for_url("**/admin/reports/paper-notices/")
    rows = page.locator("table.listing tbody tr")
    assert rows.count() == 3
    assert page.locator("form[data-notice-acknowledge]").count() == 3
    screenshot(page, SCREENSHOTS, "01-report")
    assert axe_violations(page) == []

    # Filter by type: only the retraction is left.
    page.goto("/admin/reports/paper-notices/")
    page.get_by_role("button", name="Show filters").click()
    page.get_by_role("button", name="Type", exact=True).click()
    page.get_by_label("Type").select_option("retraction")
    page.wait_for_function("document.querySelectorAll('table.listing tbody tr').length === 1")
    assert "update_type=retraction" in page.url  # the address keeps the filter
    page.keyboard.press("Escape")
    row = rows.first
    assert odin.title in row.inner_text() and "Retraction Watch" in row.inner_text()
    screenshot(page, SCREENSHOTS, "02-filtered")

    # Acknowledge it: back on the filtered report (the whole page, not the results fragment
    # the filter reloaded), who and when recorded.
    row.get_by_role("button", name="Acknowledge").click()
    page.wait_for_url("**update_type=retraction**")
    page.locator("[data-notice-acknowledged]").first.wait_for()
    assert page.locator("form[data-notice-acknowledge]").count() == 0
    assert "by editor" in rows.first.inner_text()
    page.get_by_text(f"Acknowledged: Retraction of “{odin.title}”.").wait_for()
    assert page.locator("header h1").inner_text().strip() == "Retracted and corrected papers"
    screenshot(page, SCREENSHOTS, "03-acknowledged")

    retraction.refresh_from_db()
    assert retraction.acknowledged_by == editor and retraction.acknowledged_at is not None
    assert PaperNotice.objects.filter(acknowledged_at__isnull=True).count() == 2
