"""What an editor sees on the paper form and the sync screens, measured in a real browser."""

import pytest

from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS
from tests.support.users import member
from tests.sync.conftest import upstream  # noqa: F401 (fixture)

from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "editor_screens"


@pytest.fixture
def editor(seeded_live_server, new_browser_page):  # noqa: F811
    member(EDITORS, "editor", password="editor")
    page = new_browser_page()
    log_in(page, "editor")
    return page


def box(locator) -> dict:
    return locator.evaluate(
        """el => { const r = el.getBoundingClientRect();
                   return {left: r.left, right: r.right, top: r.top, bottom: r.bottom,
                           width: r.width, scroll: el.scrollWidth, client: el.clientWidth}; }"""
    )


def test_the_paper_forms_year_shows_its_four_digits(editor, screenshot):
    paper = Paper.objects.order_by("pk").first()
    editor.goto(f"/admin/snippets/papers/paper/edit/{paper.pk}/")

    year = box(editor.locator("#id_year"))

    screenshot(editor, SCREENSHOTS, "paper-form")
    assert year["width"] >= 120, year
    assert year["scroll"] <= year["client"], year  # nothing of the value scrolled out of view


def test_sync_now_holds_its_icon_and_the_screen_says_where_it_is(editor, screenshot):
    paper = Paper.objects.order_by("pk").first()
    editor.goto(f"/admin/sync/papers/{paper.pk}/")

    button = editor.locator("button[data-sync-now]")
    outer, icon = box(button), box(button.locator("svg"))

    screenshot(editor, SCREENSHOTS, "paper-sync-screen")
    assert outer["left"] <= icon["left"] and icon["right"] <= outer["right"], (outer, icon)
    assert outer["top"] <= icon["top"] and icon["bottom"] <= outer["bottom"], (outer, icon)
    header = editor.locator("header nav[aria-label=Breadcrumb]").inner_text()
    assert paper.title in header and header.strip() != "Home"


def test_the_dashboard_is_headed_with_the_product_name(editor):
    editor.goto("/admin/")
    assert editor.locator("h1").first.inner_text() == "Research digests"


def test_a_slug_clash_is_shown_on_the_content_tab_with_a_link(editor, screenshot):
    from cms.digests.models import DigestPage, TopicPage
    from tests.support.factories import add_draft_digest

    topic = TopicPage.objects.filter(locale__language_code="en").order_by("path").first()
    draft = add_draft_digest(topic, "QueueBench", summary="First try.")

    editor.goto(f"/admin/pages/add/digests/digestpage/{topic.pk}/")
    editor.fill("#id_title", "QueueBench")  # the slug follows the title
    editor.fill("#id_short_name", "QueueBench")
    editor.fill("#id_reading_minutes", "3")
    editor.fill("#id_summary", "Second try.")
    publish = editor.locator('button[name="action-publish"]')
    if not publish.is_visible():
        editor.locator("footer [data-w-dropdown-target='toggle']").last.click()
    publish.click()

    error = editor.locator(
        "#panel-child-content-child-title-section .error-message, "
        "[data-contentpath=title] .error-message"
    )
    error.first.wait_for()
    screenshot(editor, SCREENSHOTS, "slug-clash")
    assert error.first.is_visible()
    assert "queuebench" in error.first.inner_text()
    link = error.first.get_by_role("link")
    assert link.get_attribute("href") == f"/admin/pages/{draft.pk}/edit/"
    assert DigestPage.objects.filter(slug="queuebench").count() == 1


def test_a_field_the_editor_fixes_by_hand_is_locked_against_the_sync(editor):
    from cms.papers.models import PaperAuthor

    paper = Paper.objects.order_by("pk").first()
    paper.abstract = "First paragraph.\n\nSecond paragraph."  # sent back as CRLF: not an edit
    paper.provenance = {
        "title": {"source": "dblp", "fetched_at": "2026-12-01T00:00:00+00:00"},
        "abstract": {"source": "crossref", "fetched_at": "2026-12-01T00:00:00+00:00"},
    }
    paper.locked_fields = []
    paper.save()
    PaperAuthor.objects.create(paper=paper, sort_order=0, name="Ada Author", affiliations=["X"])
    PaperAuthor.objects.create(paper=paper, sort_order=1, name="Bo Author", affiliations=[])

    def save_title(title: str) -> None:
        editor.fill("#id_title", title)
        editor.locator("button.action-save").click()
        editor.wait_for_url("**/admin/snippets/papers/paper/")

    editor.goto(f"/admin/snippets/papers/paper/edit/{paper.pk}/")
    save_title("A title fixed by hand")

    paper.refresh_from_db()
    assert paper.title == "A title fixed by hand"
    assert paper.locked_fields == ["title"]  # only what was changed: not the abstract, authors
    assert set(paper.provenance) == {"abstract"}  # DBLP no longer holds for the title
    assert [a.name for a in paper.authors.all()] == ["Ada Author", "Bo Author"]

    editor.goto(f"/admin/snippets/papers/paper/edit/{paper.pk}/")
    assert editor.locator('input[name="locked_fields"][value="title"]').is_checked()
    editor.locator('input[name="locked_fields"][value="title"]').uncheck()
    editor.fill("#id_authors-1-name", "Bo Author-Smith")
    save_title("Fixed again, for the sync to overwrite")

    paper.refresh_from_db()
    assert paper.title == "Fixed again, for the sync to overwrite"
    assert paper.locked_fields == ["authors"]  # the title unticked in the same save: theirs
    assert [a.name for a in paper.authors.all()] == ["Ada Author", "Bo Author-Smith"]


def test_a_sync_while_the_form_is_open_is_neither_locked_nor_undone(editor, upstream):  # noqa: F811
    from cms.digests.models import DigestPage
    from sync.services import sync_batch

    paper = DigestPage.objects.get(locale__language_code="en", short_name="ByteScale").paper
    from cms.papers.models import PaperAuthor

    assert not paper.locked_fields
    for order, name in enumerate(["H. Ge", "J. Feng"]):  # rows the sync rewrites in place
        PaperAuthor.objects.create(paper=paper, sort_order=order, name=name)
    editor.goto(f"/admin/snippets/papers/paper/edit/{paper.pk}/")

    sync_batch(paper_ids=[paper.pk], run=None)  # while the editor has the form open
    synced = Paper.objects.get(pk=paper.pk)
    editor.fill("#id_title", "Only the title, by hand")
    editor.locator("button.action-save").click()
    editor.wait_for_url("**/admin/snippets/papers/paper/")

    paper.refresh_from_db()
    assert paper.title == "Only the title, by hand"
    assert paper.locked_fields == ["title"]  # the rest was not edited by hand: not locked
    assert paper.abstract == synced.abstract != ""  # ...and the form's stale copy undid nothing
    assert [a.name for a in paper.authors.all()] == [a.name for a in synced.authors.all()]
    assert len(synced.authors.all()) == 4
    assert paper.provenance["abstract"] == synced.provenance["abstract"]
