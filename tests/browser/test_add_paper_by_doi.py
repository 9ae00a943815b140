"""Acceptance: an editor starts a digest from a DOI - the paper chooser looks the paper up in
the sources (the local stand-in, tests/conftest.py `lookup_upstream`), shows what each source
gave, adds it - and publishes; the public API shows the paper with its authors and provenance."""

import pytest

from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS
from tests.support.users import member

from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)
from .test_whole_cycle import publish_from_editor

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "add_paper_by_doi"
DOI = "10.1145/3651890.3672265"
PAPER_TITLE = "Alibaba HPN: A Data Center Network for Large Language Model Training"


def test_an_editor_starts_a_digest_from_a_doi(
    seeded_live_server,
    lookup_upstream,
    new_browser_page,  # noqa: F811
    screenshot,
):
    member(EDITORS, "editor", password="editor")
    topic = TopicPage.objects.filter(locale__language_code="en").order_by("path").first()
    editor = new_browser_page()
    log_in(editor, "editor")
    editor.goto(f"/admin/pages/add/digests/digestpage/{topic.pk}/")
    editor.fill("#id_title", "HPN: a network for training")
    editor.fill("#id_short_name", "HPN")
    editor.fill("#id_reading_minutes", "4")
    editor.fill("#id_summary", "Why LLM training wants its own data center network.")

    editor.get_by_role("button", name="Choose paper").click()
    modal = editor.locator(".modal-dialog")
    modal.get_by_role("tab", name="New paper").click()
    modal.locator("#id_identifier").fill(f"https://doi.org/{DOI}")
    modal.get_by_role("button", name="Look up").click()
    record = modal.locator("[data-lookup-record]")
    record.wait_for()
    screenshot(editor, SCREENSHOTS, "01-merged-record")
    authors = record.locator("tr", has_text="Kun Qian")
    assert "DBLP" in authors.inner_text()
    assert "Crossref" in record.locator("tr", has_text=DOI).first.inner_text()
    assert not Paper.objects.filter(doi=DOI).exists()  # shown, not saved yet

    modal.get_by_role("button", name="Add paper").click()
    editor.wait_for_selector(".modal-dialog", state="detached")
    assert PAPER_TITLE in editor.locator("[data-chooser-title]").first.inner_text()
    publish_from_editor(editor)
    editor.wait_for_selector(".messages .success, .messages li.success")
    screenshot(editor, SCREENSHOTS, "02-published")

    digest = DigestPage.objects.get(locale__language_code="en", short_name="HPN")
    paper = Paper.objects.get(doi=DOI)
    assert digest.live and digest.paper == paper

    reader = new_browser_page()  # no session: the public API
    response = reader.request.get(f"{seeded_live_server.url}/api/v2/papers/{paper.pk}/")
    assert response.ok
    data = response.json()
    assert data["title"] == PAPER_TITLE
    assert [a["name"] for a in data["authors"]] == ["Kun Qian", "Yongqing Xi", "Jiamin Cao"]
    assert data["provenance"]["title"]["source"] == "dblp"
    assert data["provenance"]["authors"]["source"] == "dblp"
    assert data["provenance"]["abstract"]["source"] == "crossref"


def test_an_editor_adds_a_paper_by_title_from_the_papers_listing(
    seeded_live_server,
    lookup_upstream,
    new_browser_page,  # noqa: F811
    screenshot,
):
    member(EDITORS, "editor", password="editor")
    editor = new_browser_page()
    log_in(editor, "editor")
    editor.goto("/admin/snippets/papers/paper/")
    editor.get_by_role("link", name="Add from identifier").click()
    editor.fill("#id_identifier", "Data Center Network for Large Language Model Training")
    editor.get_by_role("button", name="Look up").click()
    candidates = editor.locator("[data-lookup-candidates]")
    candidates.wait_for()
    screenshot(editor, SCREENSHOTS, "03-title-candidates")
    row = candidates.locator("tr", has_text="SIGCOMM")
    assert "2024" in row.inner_text() and "Kun Qian, Yongqing Xi, Jiamin Cao" in row.inner_text()
    assert candidates.locator("tr", has_text="IEEE Micro").count() == 1
    row.get_by_role("button", name="This one").click()
    editor.locator("[data-lookup-record]").wait_for()
    screenshot(editor, SCREENSHOTS, "04-record-from-listing")
    editor.get_by_role("button", name="Add paper").click()
    editor.wait_for_url("**/admin/snippets/papers/paper/edit/*/")
    paper = Paper.objects.get(doi=DOI)
    assert editor.url.endswith(f"/edit/{paper.pk}/")
    assert paper.provenance["authors"]["source"] == "dblp"


def test_a_lookup_that_finds_nothing_keeps_what_the_editor_typed(
    seeded_live_server,
    lookup_upstream,
    new_browser_page,  # noqa: F811
):
    """The editor starts the paper by hand, tries a lookup on the way, and goes on by hand."""
    member(EDITORS, "editor", password="editor")
    topic = TopicPage.objects.filter(locale__language_code="en").order_by("path").first()
    editor = new_browser_page()
    log_in(editor, "editor")
    editor.goto(f"/admin/pages/add/digests/digestpage/{topic.pk}/")
    editor.get_by_role("button", name="Choose paper").click()
    modal = editor.locator(".modal-dialog")
    modal.get_by_role("tab", name="New paper").click()
    paper_form = modal.locator("form[data-paper-form]")
    paper_form.locator("[name=title]").fill("A paper no source knows")
    paper_form.locator("[name=venue]").select_option("NSDI")
    paper_form.locator("[name=year]").fill("2025")

    modal.locator("#id_identifier").fill("10.1145/0000000.9999999")
    modal.get_by_role("button", name="Look up").click()
    modal.locator("[data-lookup-error]").wait_for()

    paper_form = modal.locator("form[data-paper-form]")
    assert paper_form.locator("[name=title]").input_value() == "A paper no source knows"
    assert paper_form.locator("[name=year]").input_value() == "2025"
    assert paper_form.locator("[name=venue]").input_value() == "NSDI"
    paper_form.get_by_role("button", name="Create paper").click()
    editor.wait_for_selector(".modal-dialog", state="detached")
    assert "A paper no source knows" in editor.locator("[data-chooser-title]").first.inner_text()
    assert Paper.objects.get(title="A paper no source knows").venue == "NSDI"
