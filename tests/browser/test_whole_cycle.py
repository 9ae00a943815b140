"""Acceptance: editor -> translator -> reader, the whole cycle, as the three users do it.

An editor creates a paper from the digest's paper chooser and publishes a new digest with it;
nothing of it reaches the Chinese site. The translator, emailed, finds it in the translator's
queue, starts the translation, translates it in wagtail-localize's editor and publishes; the
Chinese API and reader show it. The editor changes the English summary; the translator's queue
lists the page as out of date while the Chinese page keeps its old text live. Screenshots of each
step are kept in test-artifacts/whole_cycle/.
"""

import json

import pytest
from django.core import mail

from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS, TRANSLATORS, ensure_roles
from tests.support.workers import wait_for

from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "whole_cycle"

PAPER_TITLE = "QueueBench: Measuring Admission Queues in Datacenter Switches"
TITLE = "QueueBench: what an admission queue costs"
SHORT_NAME = "QueueBench"
SUMMARY = "Why switch queues decide tail latency."
CHANGED_SUMMARY = "Why switch queues, not links, decide tail latency."
ZH_TITLE = "QueueBench:准入佇列的代價"
ZH_SUMMARY = "為什麼交換器佇列決定尾端延遲。"


@pytest.fixture
def people(seeded_live_server, django_user_model):
    groups = ensure_roles()
    for username, group in (("editor", EDITORS), ("translator", TRANSLATORS)):
        user = django_user_model.objects.create_user(
            username, f"{username}@example.org", password=username
        )
        user.groups.add(groups[group])


@pytest.fixture
def shots(screenshot):
    taken = []

    def take(page, name: str):
        taken.append(name)
        return screenshot(page, SCREENSHOTS, f"{len(taken):02d}-{name}")

    return take


def publish_from_editor(page) -> None:
    """Wagtail's page editor: open the footer's action menu if needed, then Publish."""
    publish = page.locator('button[name="action-publish"]')
    if not publish.is_visible():
        page.locator("footer [data-w-dropdown-target='toggle']").last.click()
    publish.click()
    page.wait_for_url("**/admin/pages/*/")


def api_items(page, base_url: str, locale: str) -> list[dict]:
    response = page.request.get(
        f"{base_url}/api/v2/pages/",
        params={"locale": locale, "type": "digests.DigestPage", "fields": "summary", "limit": 100},
    )
    assert response.ok
    return response.json()["items"]


def reader_text(page, url: str) -> str:
    page.goto(url)
    page.wait_for_selector("main[aria-busy=false]")
    return page.locator("main").inner_text()


def translate_segment(page, english: str, chinese: str) -> None:
    """In wagtail-localize's editor: open the segment showing `english`, type, save."""
    segment = page.locator("li.incomplete", has_text=english).first
    segment.get_by_role("button", name="Translate").click()
    segment.locator("textarea").fill(chinese)
    segment.get_by_role("button", name="Save").click()
    page.wait_for_selector(f"text={chinese}")


def test_editor_translator_reader_whole_cycle(people, new_browser_page, shots, seeded_live_server):  # noqa: F811
    base = seeded_live_server.url
    topic = TopicPage.objects.filter(locale__language_code="en").order_by("path").first()
    mail.outbox.clear()

    # The editor writes a new digest and creates its paper from the paper chooser.
    editor = new_browser_page()
    log_in(editor, "editor")
    editor.goto(f"/admin/pages/add/digests/digestpage/{topic.pk}/")
    editor.fill("#id_title", TITLE)
    editor.fill("#id_short_name", SHORT_NAME)
    editor.fill("#id_reading_minutes", "4")
    editor.fill("#id_summary", SUMMARY)
    editor.get_by_role("button", name="Choose paper").click()
    modal = editor.locator(".modal-dialog")
    modal.get_by_role("tab", name="New paper").click()
    modal.locator("#id_title").fill(PAPER_TITLE)
    modal.locator("#id_venue").select_option("NSDI")
    modal.locator("#id_year").fill("2026")
    shots(editor, "editor-creates-a-paper-in-the-chooser")
    modal.get_by_role("button", name="Create paper").click()
    editor.wait_for_selector(".modal-dialog", state="detached")
    assert PAPER_TITLE in editor.locator("[data-chooser-title]").first.inner_text()
    shots(editor, "editor-paper-chosen")
    publish_from_editor(editor)
    shots(editor, "editor-published")

    digest = DigestPage.objects.get(locale__language_code="en", title=TITLE)
    assert digest.live and digest.paper == Paper.objects.get(title=PAPER_TITLE)
    assert digest.get_translations().count() == 0

    # No Chinese page of it: the Chinese API lists none, and the Chinese reader shows the
    # English one, flagged as not translated yet (the API's fallback=en).
    assert SHORT_NAME not in json.dumps(api_items(editor, base, "zh-hant"))
    reader = new_browser_page()
    assert SHORT_NAME in reader_text(reader, f"{base}/")
    reader_text(reader, f"{base}/zh-hant/")
    card = reader.locator(".card", has_text=SHORT_NAME)
    assert card.locator(".flag--fallback").inner_text() == "尚未翻譯"
    assert card.locator(".card__title").first.get_attribute("lang") == "en"

    # The translator is told, finds it at the head of the queue, and starts the translation.
    wait_for(lambda: mail.outbox, 30, "the translator's notice")  # sent by a background thread
    assert [message.to for message in mail.outbox] == [["translator@example.org"]]
    assert TITLE in mail.outbox[0].subject
    translator = new_browser_page()
    log_in(translator, "translator")
    row = translator.locator("#pages-waiting-for-translation-section tr", has_text=TITLE)
    assert row.get_attribute("data-translation-state") == "not_translated"
    shots(translator, "translator-dashboard")
    translator.goto("/admin/reports/translation-queue/")
    first_row = translator.locator("table.listing tbody tr").first
    assert TITLE in first_row.inner_text()
    assert "not translated" in first_row.inner_text().lower()  # a status tag, in capitals
    shots(translator, "translator-queue")
    first_row.get_by_role("button", name="Start translation").click()
    translator.wait_for_selector("li.incomplete")
    zh_digest = digest.get_translations().get()
    assert not zh_digest.live
    assert SHORT_NAME not in json.dumps(api_items(translator, base, "zh-hant"))

    # ... translates it in wagtail-localize's editor and publishes.
    translate_segment(translator, TITLE, ZH_TITLE)
    translate_segment(translator, SUMMARY, ZH_SUMMARY)
    assert translator.locator("li.incomplete").count() == 0
    shots(translator, "translator-translated")
    translator.locator('button[name="action"][value="publish"]').click()
    translator.wait_for_selector(".messages .success, .messages li.success")
    shots(translator, "translator-published")
    zh_digest.refresh_from_db()
    assert zh_digest.live

    # The Chinese API and reader show the translation.
    zh_items = {item["id"]: item for item in api_items(translator, base, "zh-hant")}
    assert zh_items[zh_digest.pk]["title"] == ZH_TITLE
    assert zh_items[zh_digest.pk]["summary"] == ZH_SUMMARY
    zh_url = f"{base}/zh-hant/{topic.slug}/{digest.slug}/"
    text = reader_text(reader, zh_url)
    assert ZH_TITLE in text and ZH_SUMMARY in text
    assert reader.locator(".fallback-note").count() == 0  # a translation, not the fallback
    shots(reader, "reader-zh-hant")

    # The editor changes the English summary.
    editor.goto(f"/admin/pages/{digest.pk}/edit/")
    editor.fill("#id_summary", CHANGED_SUMMARY)
    publish_from_editor(editor)
    digest.refresh_from_db()
    assert digest.summary == CHANGED_SUMMARY

    # The queue lists it as out of date; the Chinese page keeps its old text live.
    translator.goto("/admin/reports/translation-queue/")
    row = translator.locator("table.listing tbody tr", has_text=TITLE)
    assert "out of date" in row.inner_text().lower()
    assert row.get_by_role("button", name="Update translation").count() == 1
    shots(translator, "translator-queue-out-of-date")
    zh_items = {item["id"]: item for item in api_items(translator, base, "zh-hant")}
    assert zh_items[zh_digest.pk]["summary"] == ZH_SUMMARY
    text = reader_text(reader, zh_url)
    assert ZH_SUMMARY in text and CHANGED_SUMMARY not in text
