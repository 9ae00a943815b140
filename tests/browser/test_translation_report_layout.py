"""The translation status report at a laptop's 1280 x 800: every row's actions are on screen."""

import pytest

from cms.digests.models import DigestPage
from cms.translation.policy.roles import TRANSLATORS
from tests.support.users import member

from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_translate_buttons_fit_in_a_1280_pixel_window(
    new_browser_page,  # noqa: F811
    seeded_live_server,
    screenshot,
):
    member(TRANSLATORS, "translator", password="translator")
    english = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    english.summary = "Changed: its row offers Sync beside Translate."
    english.save_revision().publish()
    browser_page = new_browser_page()
    assert browser_page.viewport_size == {"width": 1280, "height": 800}
    log_in(browser_page, "translator")

    browser_page.goto("/admin/reports/translation-status/")
    buttons = browser_page.locator("td.translation-actions a, td.translation-actions button")
    buttons.first.wait_for()
    screenshot(browser_page, "translation_report", "report-1280")

    assert buttons.count() > 10
    assert browser_page.locator("[data-translation-sync]").count() == 1
    width = browser_page.evaluate("document.documentElement.clientWidth")
    for index in range(buttons.count()):
        button = buttons.nth(index)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None and box["width"] > 0
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (index, box, width)
    # Nothing scrolls sideways to reach them either.
    assert browser_page.evaluate(
        "document.scrollingElement.scrollWidth <= document.documentElement.clientWidth"
    )
