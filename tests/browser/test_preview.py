"""An editor's draft through the admin's headless preview, and not on the public reader."""

import re
from html import unescape

import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory

from cms.digests.models import DigestPage, TopicPage

pytestmark = pytest.mark.browser

IFRAME_SRC = re.compile(r'<iframe src="([^"]+)"')


def admin_preview_src(page, user) -> str:
    """What the admin's preview frame loads for `page`'s latest draft (wagtail-headless-preview)."""
    draft = page.get_latest_revision_as_object()
    request = RequestFactory().get("/admin/", SERVER_NAME="localhost")
    request.user = user
    response = draft.serve_preview(request, draft.default_preview_mode)
    return unescape(IFRAME_SRC.search(response.content.decode()).group(1))


def open_reader(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("main[aria-busy=false]")


def test_draft_is_visible_in_preview_and_not_on_the_public_reader(
    seeded_live_server, page, screenshot
):
    editor = get_user_model().objects.create_superuser("editor", "e@example.com", "pw")
    digest = DigestPage.objects.get(slug="fabricperf", locale__language_code="en")
    live_title = digest.title
    digest.title = "FabricPerf, as the editor is rewriting it"
    digest.summary = "A summary nobody has published yet."
    digest.save_revision(user=editor)  # saved, not published

    open_reader(page, seeded_live_server.url + admin_preview_src(digest, editor))
    assert page.locator("h1").inner_text() == "FabricPerf, as the editor is rewriting it"
    assert page.locator(".lead").inner_text() == "A summary nobody has published yet."
    assert page.locator(".preview-banner").is_visible()
    assert page.evaluate("document.documentElement.lang") == "en"
    screenshot(page, "reader", "preview-digest-en-phone")

    open_reader(page, seeded_live_server.url + "/inside-the-server/fabricperf/")
    assert page.locator("h1").inner_text() == live_title
    assert page.locator(".preview-banner").count() == 0
    open_reader(page, seeded_live_server.url + "/")
    assert "FabricPerf, as the editor is rewriting it" not in page.locator("main").inner_text()

    # A Traditional Chinese page previews in Chinese, whatever language the reader last used.
    topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code="zh-hant")
    topic.intro = "草稿:先讀這一段再看比較表。"
    topic.save_revision(user=editor)
    open_reader(page, seeded_live_server.url + admin_preview_src(topic, editor))
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert page.locator("h1").inner_text() == "伺服器內部"
    assert page.locator(".lead").inner_text() == "草稿:先讀這一段再看比較表。"
    assert page.locator(".comparison-table tbody tr").count() == 3
    screenshot(page, "reader", "preview-topic-zh-hant-phone")

    open_reader(page, seeded_live_server.url + "/inside-the-server/?lang=zh-hant")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert page.locator("h1").inner_text() == "伺服器內部"
    assert "草稿" not in page.locator("main").inner_text()


def test_a_preview_that_cannot_be_shown_is_explained_in_one_language(seeded_live_server, browser):
    """The API's message follows the editor's language (cookie, Accept-Language), as the
    preview shell does; the page around it must not be labelled and framed in English."""
    context = browser.new_context(locale="zh-TW")
    try:
        page = context.new_page()
        response = page.goto(
            seeded_live_server.url + "/preview/?content_type=digests.digestpage&token=nope"
        )
        page.wait_for_selector("main[aria-busy=false]")
        assert response.status == 200
        assert page.locator("h1").inner_text() == "沒有與這個權杖相符的預覽"
        assert page.evaluate("document.documentElement.lang") == "zh-Hant"
        assert page.locator(".skip-link").inner_text() == "跳到主要內容"
        assert page.title() == "沒有與這個權杖相符的預覽 · 研究導讀"
    finally:
        context.close()
