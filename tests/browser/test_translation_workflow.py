"""Acceptance: an English edit reaches the Chinese API through the translators' workflow.

An editor changes one paragraph of an English digest and publishes; a translator sees the
zh-hant page out of date, syncs it, finds every other segment still translated, translates the
changed one and publishes; the API then serves the new Chinese text. Screenshots of each step
are kept in test-artifacts/translation_workflow/.
"""

import pytest
from wagtail.models import Locale
from wagtail.rich_text import RichText
from wagtail_localize.models import StringSegment, TranslationSource

from cms.digests.models import DigestPage
from cms.translation.policy.roles import EDITORS, TRANSLATORS, ensure_roles
from cms.translation.workflow.prefill import prefill_page_translation

from .conftest import DESKTOP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "translation_workflow"

PARAGRAPHS = [
    (
        "FabricPerf times every transfer inside NCCL's own kernels.",
        "FabricPerf 在 NCCL 自己的 kernel 內為每一次傳輸計時。",
    ),
    (
        "NVLink has no NIC, so there are no NIC counters to read.",
        "NVLink 沒有 NIC,所以沒有 NIC 計數器可讀。",
    ),
    (
        "Its channel and L2 findings change how collectives are tuned.",
        "它對 channel 與 L2 的發現改變了集合通訊的調校方式。",
    ),
]
CHANGED_EN = "NVLink has no NIC, so FabricPerf reads GPU timers instead."
CHANGED_ZH = "NVLink 沒有 NIC,所以 FabricPerf 改讀 GPU 計時器。"


def log_in(page, username: str) -> None:
    """Sign in to the Wagtail admin through its login form (password = username)."""
    page.goto("/admin/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", username)
    page.click("button[type=submit]")
    page.wait_for_url("**/admin/")


@pytest.fixture
def new_browser_page(browser, seeded_live_server):
    """Open a desktop-sized page in its own context (its own cookies, so its own login)."""
    contexts = []

    def open_page():
        context = browser.new_context(
            base_url=seeded_live_server.url, viewport=DESKTOP, locale="en-GB"
        )
        context.set_default_timeout(30_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def screenshots(screenshot):
    """Numbered screenshots of each step, in test-artifacts/translation_workflow/."""
    taken = []

    def take(page, name: str):
        taken.append(name)
        return screenshot(page, SCREENSHOTS, f"{len(taken):02d}-{name}")

    return take


@pytest.fixture
def digest_with_body(seeded_live_server, django_user_model):
    """A seeded digest given a three-paragraph body, fully translated; an editor, a translator."""
    groups = ensure_roles()
    for username, group in (("editor", EDITORS), ("translator", TRANSLATORS)):
        user = django_user_model.objects.create_user(username, password=username)
        user.groups.add(groups[group])

    page = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    page.body = [("paragraph", RichText(f"<p>{en}</p>")) for en, _zh in PARAGRAPHS]
    page.save_revision().publish()
    zh_locale = Locale.objects.get(language_code="zh-hant")
    zh_page = page.get_translation(zh_locale)
    source, _created = TranslationSource.update_or_create_from_instance(page)
    zh_by_en = {en: zh for en, zh in PARAGRAPHS}
    zh_by_en[page.title] = zh_page.title
    zh_by_en[page.summary] = zh_page.specific.summary
    strings = {
        segment.context.path: zh_by_en[segment.string.data]
        for segment in StringSegment.objects.filter(source=source).select_related(
            "context", "string"
        )
    }
    prefill_page_translation(page=page, locale=zh_locale, strings_by_field=strings)
    return page, page.get_translation(zh_locale)


def test_an_english_edit_reaches_the_chinese_api(
    digest_with_body, new_browser_page, screenshots, seeded_live_server
):
    digest, zh_digest = digest_with_body

    # The editor changes the second paragraph and publishes.
    editor = new_browser_page()
    log_in(editor, "editor")
    editor.goto(f"/admin/pages/{digest.pk}/edit/")
    paragraph = editor.locator(".public-DraftEditor-content").nth(1)
    paragraph.click()
    editor.keyboard.press("ControlOrMeta+a")
    editor.keyboard.type(CHANGED_EN)
    # Draftail writes its state to the form on a short debounce: give it time before
    # submitting, or a loaded machine publishes the old text.
    editor.wait_for_timeout(1500)
    screenshots(editor, "editor-changes-a-paragraph")
    publish = editor.locator('button[name="action-publish"]')
    if not publish.is_visible():
        editor.locator("footer [data-w-dropdown-target='toggle']").last.click()
    publish.click()
    editor.wait_for_url("**/admin/pages/*/")
    screenshots(editor, "editor-published")
    assert CHANGED_EN in str(DigestPage.objects.get(pk=digest.pk).body)

    # The translator sees the zh-hant page waiting, out of date.
    translator = new_browser_page()
    log_in(translator, "translator")
    panel = translator.locator("#pages-waiting-for-translation-section, [data-translation-state]")
    row = translator.locator('tr[data-translation-state="out_of_date"]')
    assert row.count() == 1 and zh_digest.title in row.inner_text()
    screenshots(translator, "translator-dashboard")
    assert panel.count() >= 1

    # ... opens the status report and syncs the page.
    translator.goto("/admin/reports/translation-status/")
    report_row = translator.locator("tr", has_text=zh_digest.title)
    assert "out of date" in report_row.inner_text().lower()
    screenshots(translator, "report-out-of-date")
    report_row.locator("[data-translation-sync]").click()
    screenshots(translator, "sync-confirmation")
    translator.locator("input[type=submit]").click()
    translator.wait_for_url("**/reports/translation-status/**")
    report_row = translator.locator("tr", has_text=zh_digest.title)
    # The changed segment starts from its previous translation, counted as one to review.
    assert "needs review" in report_row.inner_text().lower()
    assert "100%" in report_row.inner_text()
    screenshots(translator, "report-after-sync")

    # ... finds every segment translated, the changed one marked for review, revises it, publishes.
    report_row.get_by_role("link", name="Translate").click()
    translator.wait_for_selector("li.complete")
    assert translator.locator("li.incomplete").count() == 0
    changed = translator.locator("li", has_text=CHANGED_EN).last
    assert "previous translation" in changed.inner_text()
    # Pre-filled, not reviewed: drawn apart from the reviewed segments (no green tick).
    unreviewed = translator.locator("li.errored", has_text="Not reviewed yet")
    assert unreviewed.count() == 1 and CHANGED_EN in unreviewed.inner_text()
    screenshots(translator, "editor-one-segment-to-review")
    changed.get_by_role("button", name="Edit").click()
    changed.locator("textarea").fill(CHANGED_ZH)
    translator.get_by_role("button", name="Save").click()
    translator.wait_for_selector("text=" + CHANGED_ZH)
    assert translator.locator("li.errored").count() == 0
    screenshots(translator, "translator-translated")
    translator.locator('button[name="action"][value="publish"]').click()
    translator.wait_for_selector(".messages .success, .messages li.success")
    screenshots(translator, "translator-published")

    # The API serves the new Chinese text, and says the translation is current.
    response = translator.request.get(f"{seeded_live_server.url}/api/v2/pages/{zh_digest.pk}/")
    assert response.ok
    data = response.json()
    body_text = " ".join(block["value"] for block in data["body"])
    assert CHANGED_ZH in body_text
    assert PARAGRAPHS[0][1] in body_text and PARAGRAPHS[2][1] in body_text
    assert data["translation_status"]["state"] == "up_to_date"
    assert data["translation_status"]["percent_translated"] == 100
