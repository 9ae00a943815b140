"""A zh-hant translator reads wagtail-localize's translation editor in Traditional Chinese."""

import pytest
from wagtail.models import Locale
from wagtail.users.models import UserProfile

from cms.digests.models import DigestPage
from cms.translation.roles import TRANSLATORS
from tests.users import member

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
