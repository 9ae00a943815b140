"""An editor deleting English pages in the admin, in a real browser: the confirmation says what
goes with them (their zh-hant translations, and a topic's digests), and what it says goes."""

import re

import pytest
from wagtail.models import Page

from cms.digests.models import DigestPage, TopicPage
from cms.translation.policy.roles import EDITORS
from tests.support.users import member

from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "editor_deletes"


@pytest.fixture
def editor(seeded_live_server, new_browser_page):  # noqa: F811
    member(EDITORS, "editor", password="editor")
    page = new_browser_page()
    log_in(page, "editor")
    return page


def english(model, **filters):
    return model.objects.get(locale__language_code="en", **filters)


def zh_hant_of(page: Page) -> Page:
    return Page.objects.translation_of(page).get(locale__language_code="zh-hant")


def confirm_delete(editor) -> None:
    """Press "Yes, delete", typing the site's name first when Wagtail asks for it."""
    confirm_name = editor.locator("#id_confirm_site_name")
    if confirm_name.count():
        confirm_name.fill(editor.locator("[data-confirm-site-name]").first.inner_text().strip())
    editor.get_by_role("button", name=re.compile("^Yes, delete")).click()
    editor.wait_for_load_state()


def test_bulk_delete_names_the_translations_that_go_too(editor, screenshot):
    digest = english(DigestPage, short_name="FabricPerf")
    zh_digest = zh_hant_of(digest)
    editor.goto(f"/admin/bulk/wagtailcore/page/delete/?id={digest.pk}")

    screenshot(editor, SCREENSHOTS, "bulk-delete-confirmation")
    listed = editor.locator("main").inner_text()
    assert zh_digest.title in listed
    assert "繁體中文" in listed  # the translation's language, named in its own

    confirm_delete(editor)
    assert not Page.objects.filter(pk__in=[digest.pk, zh_digest.pk]).exists()


def test_an_editor_deletes_a_topic_with_its_digests_and_their_translations(editor, screenshot):
    topic = english(TopicPage, slug="inside-the-server")
    zh_topic = zh_hant_of(topic)
    digests = list(topic.get_children().values_list("pk", flat=True))
    zh_digests = list(zh_topic.get_children().values_list("pk", flat=True))
    assert digests and zh_digests

    editor.goto(f"/admin/pages/{topic.pk}/delete/")
    screenshot(editor, SCREENSHOTS, "topic-delete-confirmation")
    text = editor.locator("main").inner_text()
    assert f"also delete {len(digests)} more child pages" in text, text
    assert "also delete 1 translation" in text, text

    confirm_delete(editor)

    gone = [topic.pk, zh_topic.pk, *digests, *zh_digests]
    assert not Page.objects.filter(pk__in=gone).exists()
    response = editor.request.get(f"/api/v2/pages/?type=digests.TopicPage&slug={topic.slug}")
    assert response.json()["meta"]["total_count"] == 0


def test_an_editor_may_not_delete_the_site_root(editor):
    root = english(Page, depth=2)
    editor.goto(f"/admin/pages/{root.pk}/delete/")

    assert editor.get_by_role("button", name=re.compile("^Yes, delete")).count() == 0
    assert Page.objects.filter(pk=root.pk).exists()
