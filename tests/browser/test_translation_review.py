"""Issue 46, items 1 and 5, as a translator sees them, in both admin languages.

1. After an English edit and "Update", the changed segment starts from its previous Chinese:
   it is drawn apart from reviewed segments (no green tick) until the translator saves it, and
   Publish asks first; nothing goes live (database, public API) until the translator confirms.
   The API then calls the live page `needs_review`.
5. Saving Simplified characters (网络) answers at once, on that segment, in the admin's
   language, with its Taiwan form (網路, as the glossary wants; not 網絡); one message, no
   page-level warning (neither the guard's nor the glossary's) on saving or reopening.

Screenshots (each with the segment scrolled into view) are kept in
test-artifacts/translation_review/.
"""

import pytest
from django.contrib.auth import get_user_model
from wagtail.rich_text import RichText
from wagtail.users.models import UserProfile
from wagtail_localize.models import TranslationSource

from cms.digests.models import DigestPage

from .test_translation_workflow import (  # noqa: F401 (fixtures)
    PARAGRAPHS,
    digest_with_body,
    log_in,
    new_browser_page,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "translation_review"
LANGUAGES = ["en", "zh-hant"]
# Wagtail's page-level messages in orange (warning) or red (error), above the segments.
WARNINGS = ".messages li.warning, .messages li.error"

CHANGED_EN = "NVLink has no NIC, so FabricPerf reads GPU timers instead."
# The translator's own, reviewed revision of the third paragraph: what publishing would put live.
REVISED_ZH = "它對 channel 與 L2 的發現,改變了集合通訊調校的方式。"
SIMPLIFIED_ZH = "它對 channel 與 L2 的發現改變了集合通訊网络的調校方式。"

# What the translator reads, per admin language.
TEXT = {
    "en": {
        "edit": "Edit",
        "save": "Save",
        "unreviewed": "Not reviewed yet",
        "question": "nobody has reviewed it",
        "publish_as_it_is": "Publish as it is",
        "simplified": "Simplified Chinese 网络: write 網路 instead. It cannot be published.",
        "page_warning": "Simplified Chinese characters found",
    },
    "zh-hant": {
        "edit": "編輯",
        "save": "儲存",
        "unreviewed": "尚未審閱",
        "question": "尚未經過任何人審閱",
        "publish_as_it_is": "照原樣發布",
        "simplified": "簡體字「网络」請改為「網路」；含簡體字的譯文無法發布。",  # noqa: RUF001
        "page_warning": "發現簡體字",
    },
}


def prefer(username: str, language: str) -> None:
    """The user's admin language preference, as they would set it in their account."""
    profile = UserProfile.get_for_user(get_user_model().objects.get(username=username))
    profile.preferred_language = "" if language == "en" else language
    profile.save()


def segment_of(browser_page, english: str):
    """The translation editor's row of the segment whose source text is `english`."""
    return browser_page.locator(".js-translation-editor li", has_text=english).last


def shoot(screenshot, browser_page, row, name: str, language: str):
    row.scroll_into_view_if_needed()
    return screenshot(browser_page, SCREENSHOTS, f"{name}-{language}")


def guard_warnings(browser_page, text: dict[str, str]) -> list[str]:
    """The zh-Hant guard's page-level messages (the old second, orange, warning)."""
    return [
        message
        for message in browser_page.locator(WARNINGS).all_inner_texts()
        if text["page_warning"] in message
    ]


def api_digest(browser_page, base_url: str, slug: str) -> dict:
    """The zh-hant digest as the public pages API lists it to an anonymous reader."""
    response = browser_page.context.request.get(
        f"{base_url}/api/v2/pages/?locale=zh-hant&type=digests.DigestPage&slug={slug}"
        "&fields=body,translation_status",
        headers={"Cookie": ""},
    )
    assert response.ok
    (item,) = response.json()["items"]
    return item


def api_body(item: dict) -> str:
    return " ".join(str(block["value"]) for block in item["body"])


def live_body(page: DigestPage) -> str:
    page = DigestPage.objects.get(pk=page.pk)
    return str(page.live_revision.as_object().body)


@pytest.mark.parametrize("language", LANGUAGES)
def test_prefilled_text_is_marked_and_publishing_it_asks_first(
    digest_with_body,  # noqa: F811
    new_browser_page,  # noqa: F811
    screenshot,
    seeded_live_server,
    language,
):
    digest, zh_digest = digest_with_body
    text = TEXT[language]
    prefer("translator", language)
    old_live_revision = DigestPage.objects.get(pk=zh_digest.pk).live_revision_id
    # An editor changes the second paragraph, in place (their screens are another test's).
    english = DigestPage.objects.get(pk=digest.pk)
    english.body[1].value = RichText(f"<p>{CHANGED_EN}</p>")
    english.save_revision().publish()

    translator = new_browser_page()
    log_in(translator, "translator")
    # "Update": wagtail-localize's sync of the translated pages (the report's "Sync").
    source = TranslationSource.objects.get(object_id=digest.translation_key, locale=digest.locale)
    translator.goto(f"/admin/localize/update/{source.pk}/")
    with translator.expect_navigation():
        translator.locator("input[type=submit]").click()

    translator.goto(f"/admin/pages/{zh_digest.pk}/edit/")
    translator.wait_for_selector(".js-translation-editor li.complete")
    changed = segment_of(translator, CHANGED_EN)
    reviewed = segment_of(translator, PARAGRAPHS[0][0])
    # The pre-filled segment: its old Chinese, drawn apart (no green tick) with a note.
    assert PARAGRAPHS[1][1] in changed.inner_text()
    assert "errored" in changed.get_attribute("class")
    assert text["unreviewed"] in changed.inner_text()
    assert changed.locator(".icon--green").count() == 0
    assert "complete" in reviewed.get_attribute("class")
    assert reviewed.locator(".icon--green").count() == 1
    shoot(screenshot, translator, changed, "01-prefilled-segment-marked", language)

    # The translator revises the third paragraph, leaves the pre-filled one, and publishes.
    third = segment_of(translator, PARAGRAPHS[2][0])
    third.get_by_role("button", name=text["edit"], exact=True).click()
    third.locator("textarea").fill(REVISED_ZH)
    third.get_by_role("button", name=text["save"], exact=True).click()
    third.get_by_text(REVISED_ZH).wait_for()
    translator.locator('button[name="action"][value="publish"]').click()

    # Asked first; nothing has gone live.
    question = translator.locator("[data-unreviewed-question]")
    question.wait_for()
    assert text["question"] in question.inner_text()
    shoot(screenshot, translator, question, "02-publish-asks-first", language)
    assert DigestPage.objects.get(pk=zh_digest.pk).live_revision_id == old_live_revision
    assert REVISED_ZH not in live_body(zh_digest)
    item = api_digest(translator, seeded_live_server.url, zh_digest.slug)
    assert PARAGRAPHS[2][1] in api_body(item) and REVISED_ZH not in api_body(item)
    # The live page predates the English edit.
    assert item["translation_status"]["state"] == "out_of_date"

    # Confirmed: live, and the API names the unreviewed text truly.
    translator.get_by_role("button", name=text["publish_as_it_is"]).click()
    translator.wait_for_selector(".messages .success, .messages li.success")
    assert REVISED_ZH in live_body(zh_digest)
    item = api_digest(translator, seeded_live_server.url, zh_digest.slug)
    assert REVISED_ZH in api_body(item)
    assert item["translation_status"]["state"] == "needs_review"

    # Saving the pre-filled segment reviews it: the green tick, and publishing no longer asks.
    translator.goto(f"/admin/pages/{zh_digest.pk}/edit/")
    changed = segment_of(translator, CHANGED_EN)
    changed.get_by_role("button", name=text["edit"], exact=True).click()
    changed.get_by_role("button", name=text["save"], exact=True).click()
    changed.locator(".icon--green").wait_for()
    assert "errored" not in changed.get_attribute("class")
    assert text["unreviewed"] not in changed.inner_text()
    shoot(screenshot, translator, changed, "03-reviewed-segment-ticked", language)
    translator.locator('button[name="action"][value="publish"]').click()
    translator.wait_for_selector(".messages .success, .messages li.success")
    assert translator.locator("[data-unreviewed-question]").count() == 0
    item = api_digest(translator, seeded_live_server.url, zh_digest.slug)
    assert item["translation_status"]["state"] == "up_to_date"


@pytest.mark.parametrize("language", LANGUAGES)
def test_simplified_characters_are_answered_once_on_save(
    digest_with_body,  # noqa: F811
    new_browser_page,  # noqa: F811
    screenshot,
    seeded_live_server,
    language,
):
    _digest, zh_digest = digest_with_body
    text = TEXT[language]
    prefer("translator", language)
    translator = new_browser_page()
    log_in(translator, "translator")
    translator.goto(f"/admin/pages/{zh_digest.pk}/edit/")
    translator.wait_for_selector(".js-translation-editor li.complete")
    # Marks this document: gone if the page reloads.
    translator.evaluate("window.notReloaded = true")

    row = segment_of(translator, PARAGRAPHS[2][0])
    row.get_by_role("button", name=text["edit"], exact=True).click()
    row.locator("textarea").fill(SIMPLIFIED_ZH)
    row.get_by_role("button", name=text["save"], exact=True).click()
    row.get_by_text(text["simplified"]).wait_for()

    # At once, on the segment, in red (no tick), in the admin's language, with 網路.
    assert translator.evaluate("window.notReloaded === true")
    assert "errored" in row.get_attribute("class")
    assert row.locator(".icon--green").count() == 0
    shoot(screenshot, translator, row, "04-simplified-on-save", language)
    # Once: nowhere else on the page, and no page-level message about it.
    body = translator.locator("body").inner_text()
    assert body.count(text["simplified"]) == 1 and "網絡" not in body
    assert not [m for m in translator.locator(WARNINGS).all_inner_texts() if "网" in m]
    assert text["page_warning"] not in body.replace(text["simplified"], "")

    # Opening the editor again shows it the same way, once.
    translator.goto(f"/admin/pages/{zh_digest.pk}/edit/")
    row = segment_of(translator, PARAGRAPHS[2][0])
    row.get_by_text(text["simplified"]).wait_for()
    body = translator.locator("body").inner_text()
    assert body.count(text["simplified"]) == 1 and "網絡" not in body
    assert not guard_warnings(translator, text)
    # Nor the glossary's (it forbids 网络 and 網絡): no page-level message names 网 at all.
    assert not [m for m in translator.locator(WARNINGS).all_inner_texts() if "网" in m]
    shoot(screenshot, translator, row, "05-simplified-on-reopen", language)
    zh = DigestPage.objects.get(pk=zh_digest.pk)
    assert "网络" not in str(zh.live_revision.as_object().body)
