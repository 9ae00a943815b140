"""Acceptance: a translator uses the translation memory and sees a glossary warning.

A new English digest repeats a published digest's summary and has "congestion control" in its
title. The translator starts its translation, clicks "Translate with ...": the summary comes
from the memory (marked so), the title from the machine with the glossary's term. She opens the
page's memory and glossary, then rewrites the title without the glossary's term: the editor
warns, publishing warns and still publishes. Screenshots in test-artifacts/translation_memory/.
"""

import pytest
from wagtail.models import Locale
from wagtail_localize.models import StringTranslation

from cms.digests.models import DigestPage
from cms.translation.policy.roles import TRANSLATORS
from tests.support.factories import PUBLISHED, DigestPageFactory
from tests.support.users import member

from .conftest import DESKTOP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
TITLE = "Congestion control for shared rails"
OWN_TITLE = "共享 rail 的擁擠控制"  # her own wording, without the glossary's 壅塞控制


@pytest.fixture
def new_digest(seeded_live_server):
    member(TRANSLATORS, "translator", password="translator")
    fabric = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    page = DigestPageFactory(
        parent=fabric.get_parent(),
        title=TITLE,
        slug="shared-rails",
        short_name="SharedRails",
        reading_minutes=4,
        summary=fabric.summary,
        revision=PUBLISHED,
    )
    return page, fabric.get_translation(Locale.objects.get(language_code="zh-hant"))


def test_translator_uses_the_memory_and_sees_a_glossary_warning(
    browser, seeded_live_server, new_digest, screenshot
):
    page_en, zh_fabric = new_digest
    context = browser.new_context(base_url=seeded_live_server.url, viewport=DESKTOP)
    context.set_default_timeout(30_000)
    tab = context.new_page()
    shots = iter(range(1, 20))

    def shoot(name):
        screenshot(tab, "translation_memory", f"{next(shots):02d}-{name}")

    tab.goto("/admin/login/")
    tab.fill("#id_username", "translator")
    tab.fill("#id_password", "translator")
    tab.click("button[type=submit]")
    tab.wait_for_url("**/admin/")

    # She asks for the Traditional Chinese translation of the new digest.
    tab.goto(f"/admin/localize/submit/page/{page_en.pk}/")
    tab.locator("input[name=locales]").first.check()
    tab.locator("form [type=submit]").last.click()
    tab.wait_for_selector("text=Translate with")
    shoot("editor-before")

    # "Translate with ...": the summary from the memory, the title from the machine.
    tab.get_by_role("button", name="Translate with").click()
    tab.wait_for_selector(".messages .success, .messages li.success")
    tab.wait_for_selector(f"text={zh_fabric.specific.summary}")
    shoot("translated-from-memory")
    summary = StringTranslation.objects.get(
        context__object_id=page_en.translation_key, context__path="summary"
    )
    assert summary.data == zh_fabric.specific.summary
    assert summary.tool_name == "translation memory"
    assert "translation memory" in tab.content()
    title = StringTranslation.objects.get(
        context__object_id=page_en.translation_key, context__path="title"
    )
    assert "壅塞控制" in title.data  # the glossary's term, kept by the machine

    # The page's memory and glossary: the matches and the terms in its English.
    tab.get_by_role("link", name="Memory and glossary").click()
    tab.wait_for_selector("table.listing")
    panel = tab.locator("table.listing").inner_text()
    assert "congestion control" in panel and "壅塞控制" in panel
    assert "100.0%" in panel  # the summary's exact match, scored
    shoot("memory-and-glossary")

    # She writes her own title without the glossary's term: the editor warns.
    title.data = OWN_TITLE
    title.translation_type = StringTranslation.TRANSLATION_TYPE_MANUAL
    title.save()
    tab.get_by_role("link", name="Back to the translation").click()
    warning = tab.locator(".messages", has_text="Glossary:")
    assert "“congestion control” should be translated as “壅塞控制”" in warning.inner_text()
    shoot("glossary-warning")

    # The summary came from the memory and nobody reviewed it: publishing asks first. Once
    # she confirms, it publishes with the glossary warning, not blocked by it.
    tab.locator('button[name="action"][value="publish"]').click()
    tab.wait_for_selector("[data-unreviewed-question]")
    assert not DigestPage.objects.get(pk=page_en.get_translation(zh_fabric.locale).pk).live
    tab.get_by_role("button", name="Publish as it is").click()
    tab.wait_for_selector("text=publishing is not blocked")
    shoot("published-with-warning")
    zh_page = page_en.get_translation(zh_fabric.locale)
    assert DigestPage.objects.get(pk=zh_page.pk).live
    assert DigestPage.objects.get(pk=zh_page.pk).title == OWN_TITLE
    context.close()
