"""A zh-hant translator reads wagtail-localize's translation editor in Traditional Chinese."""

import pytest
from wagtail.models import Locale
from wagtail.users.models import UserProfile

from cms.digests.models import DigestPage
from cms.translation.policy.roles import TRANSLATORS
from tests.support.users import member

from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_translation_editor_speaks_chinese_to_a_zh_hant_translator(
    new_browser_page,  # noqa: F811
    seeded_live_server,
):
    translator = member(TRANSLATORS, "translator", password="translator")
    profile = UserProfile.get_for_user(translator)
    profile.preferred_language = "zh-hant"
    profile.save()
    page = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    zh_page = page.get_translation(Locale.objects.get(language_code="zh-hant"))
    browser_page = new_browser_page()
    log_in(browser_page, "translator")

    browser_page.goto(f"/admin/pages/{zh_page.pk}/edit/")

    browser_page.locator(".js-translation-editor footer").wait_for()
    text = browser_page.locator("body").inner_text()
    for chinese in ["發布：繁體中文", "用以下工具翻譯：", "上傳 PO 檔案"]:  # noqa: RUF001
        assert chinese in text
    for english in ["Publish in", "Translate with", "Upload PO file"]:
        assert english not in text


def chinese_translator():
    translator = member(TRANSLATORS, "translator", password="translator")
    profile = UserProfile.get_for_user(translator)
    profile.preferred_language = "zh-hant"
    profile.save()
    return translator


# English a zh-hant translator met on these screens (issue 46, item 4).
ENGLISH_SEEN = [
    "Help",
    "new items in this menu",
    "More actions",
    "Collapse all",
    "Search all pages",
    "Aging pages",
    "Page types usage",
    "seed import",
    "December",
    "previous translation",
    "Translated with",
]


def test_a_zh_hant_translator_reads_the_admin_in_chinese(
    new_browser_page,  # noqa: F811
    seeded_live_server,
    screenshot,
):
    chinese_translator()
    page = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    zh_page = page.get_translation(Locale.objects.get(language_code="zh-hant"))
    browser_page = new_browser_page()
    log_in(browser_page, "translator")
    seen = {}

    browser_page.goto("/admin/")
    browser_page.get_by_role("button", name="報表").click()
    seen["dashboard"] = browser_page.locator("body").inner_text()
    screenshot(browser_page, "zh-hant-admin", "01-dashboard-reports-menu")
    assert "搜尋所有頁面…" in browser_page.locator("body").inner_html()

    browser_page.goto(f"/admin/pages/{zh_page.get_parent().pk}/")
    browser_page.locator("table.listing").wait_for()
    seen["explorer"] = browser_page.locator("body").inner_text()
    screenshot(browser_page, "zh-hant-admin", "02-page-explorer")

    browser_page.goto(f"/admin/pages/{zh_page.pk}/edit/")
    browser_page.locator(".js-translation-editor footer").wait_for()
    seen["translation editor"] = browser_page.locator("body").inner_text()
    screenshot(browser_page, "zh-hant-admin", "03-translation-editor")
    # The seed's texts: "於 2026年1月31日 用初始內容匯入翻譯", the tool and the date in Chinese.
    assert "用初始內容匯入翻譯" in seen["translation editor"]

    browser_page.goto("/admin/reports/translation-status/")
    seen["translation status"] = browser_page.locator("body").inner_text()
    screenshot(browser_page, "zh-hant-admin", "04-translation-status")

    # wagtail-localize's editor bundle writes its menu's screen-reader label "More actions" in
    # English, outside any catalog: the one English left there (not ours to translate).
    seen["translation editor"] = seen["translation editor"].replace("More actions", "", 1)
    english = {
        screen: [words for words in ENGLISH_SEEN if words in text] for screen, text in seen.items()
    }
    assert english == {screen: [] for screen in seen}
