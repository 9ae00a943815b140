"""What a new editor trips over in the admin, as the Editors role, in both admin languages:
an abandoned "Add child page" left a draft holding the slug, the Papers listing at phone
width, a bulk bar offering only Delete, and the lookup field labelled with the action."""

import pytest
from wagtail.users.models import UserProfile

from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS
from tests.support.factories import add_draft_digest
from tests.support.users import member

from .conftest import PHONE
from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "editor_first_use"
ADMIN_LANGUAGES = ["en", "zh-hant"]


@pytest.fixture(params=ADMIN_LANGUAGES)
def editor(request, seeded_live_server, new_browser_page):  # noqa: F811
    """A signed-in member of Editors whose admin speaks the parametrized language."""
    user = member(EDITORS, "editor", password="editor")
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = request.param
    profile.save()
    page = new_browser_page()
    log_in(page, "editor")
    page.admin_language = request.param
    return page


def form_controllers(page) -> list[str]:
    form = page.locator("form[data-edit-form][data-controller*='w-unsaved']")
    return form.get_attribute("data-controller").split()


def test_an_abandoned_add_child_page_leaves_no_draft_holding_the_slug(editor, screenshot):
    topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code="en")
    add_url = f"/admin/pages/add/digests/digestpage/{topic.pk}/"
    title = "A digest started and abandoned"

    editor.goto(add_url)
    assert "w-autosave" not in form_controllers(editor)  # nothing saves behind the editor's back
    editor.fill("#id_title", title)
    editor.locator("#id_title").blur()
    screenshot(editor, SCREENSHOTS, f"add-child-page-typed-{editor.admin_language}")
    editor.goto(f"/admin/pages/{topic.pk}/")  # the editor leaves
    assert not DigestPage.objects.filter(slug="a-digest-started-and-abandoned").exists()

    # Once a page exists, its edit form is autosaved as Wagtail does.
    draft = add_draft_digest(topic, title)
    editor.goto(f"/admin/pages/{draft.pk}/edit/")
    assert "w-autosave" in form_controllers(editor)


def words_broken_across_lines(locator) -> list[str]:
    """Words (between spaces and hyphens) of the element's text that start on one line and
    end on another."""
    return locator.evaluate(
        """el => {
            const broken = [];
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
                const re = /[^\\s\\-\\u2010-\\u2014/]+/g;
                for (let m = re.exec(node.data); m; m = re.exec(node.data)) {
                    const range = document.createRange();
                    range.setStart(node, m.index);
                    range.setEnd(node, m.index + m[0].length);
                    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
                    if (tops.size > 1) broken.push(m[0]);
                }
            }
            return broken;
        }"""
    )


def test_the_papers_listing_is_usable_on_a_phone(editor, screenshot):
    editor.set_viewport_size(PHONE)
    editor.goto("/admin/snippets/papers/paper/")
    rows = editor.locator("table.listing tbody tr")
    assert rows.count() >= 10
    screenshot(editor, SCREENSHOTS, f"papers-listing-phone-{editor.admin_language}")

    for index in range(5):
        row = rows.nth(index)
        title = row.locator("td.title a").first
        assert words_broken_across_lines(title) == [], title.inner_text()
        sync = row.get_by_role("link", name="Sync" if editor.admin_language == "en" else "同步")
        assert sync.bounding_box()["height"] < 40, "the Sync button wraps"
    # Nothing sticks out sideways: the listing fits the screen.
    assert editor.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_papers_listing_offers_editors_no_bulk_action_they_may_not_do(editor, screenshot):
    editor.goto("/admin/snippets/papers/paper/")
    editor.locator("table.listing").wait_for()
    screenshot(editor, SCREENSHOTS, f"papers-listing-no-bulk-bar-{editor.admin_language}")
    assert editor.locator("input[data-bulk-action-checkbox]").count() == 0
    assert editor.locator("[data-bulk-action-footer]").count() == 0
    assert editor.locator("a[data-bulk-action-button]").count() == 0

    # Nor does the bulk delete address delete anything for them.
    paper = Paper.objects.order_by("pk").first()
    editor.goto(f"/admin/bulk/papers/paper/delete/?id={paper.pk}")
    token = editor.evaluate("document.querySelector('input[name=csrfmiddlewaretoken]')?.value")
    if token:
        editor.request.post(
            f"/admin/bulk/papers/paper/delete/?id={paper.pk}",
            form={"csrfmiddlewaretoken": token},
            headers={"Referer": editor.url},
        )
    assert Paper.objects.filter(pk=paper.pk).exists()


def test_a_superuser_keeps_the_bulk_delete(seeded_live_server, new_browser_page):  # noqa: F811
    from django.contrib.auth import get_user_model

    get_user_model().objects.create_superuser("admin", "admin@example.com", "admin")
    page = new_browser_page()
    log_in(page, "admin")
    page.goto("/admin/snippets/papers/paper/")
    assert page.locator("input[data-bulk-action-checkbox]").count() > 0
    buttons = page.locator("[data-bulk-action-button]")
    assert [text.strip() for text in buttons.all_text_contents()] == ["Delete"]


LOOKUP_LABEL = {
    "en": "DOI, arXiv id, DBLP key or title",
    "zh-hant": "DOI、arXiv 識別碼、DBLP 鍵值或論文標題",
}


def test_the_lookup_field_is_labelled_with_what_to_type(editor, screenshot):
    editor.set_viewport_size(PHONE)
    editor.goto("/admin/sync/add-paper/")
    field = editor.get_by_label(LOOKUP_LABEL[editor.admin_language], exact=True)
    assert field.get_attribute("name") == "identifier"
    screenshot(editor, SCREENSHOTS, f"lookup-field-label-{editor.admin_language}")
