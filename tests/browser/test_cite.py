"""The reader's "Cite" control copies a digest's paper citation, in both languages."""

import urllib.request

import pytest

from .conftest import DESKTOP

pytestmark = pytest.mark.browser

DIGEST_PATH = {
    "en": "/inside-the-server/fabricperf/",
    "zh-hant": "/zh-hant/inside-the-server/fabricperf/",
}
UI = {
    "en": {"cite": "Cite", "copy": "Copy", "copied": "BibTeX citation copied to the clipboard."},
    "zh-hant": {"cite": "引用", "copy": "複製", "copied": "已將 BibTeX 引用格式複製到剪貼簿。"},
}


@pytest.fixture
def cited_fabricperf():
    """FabricPerf's paper with a DOI and an author whose name needs more than ASCII."""
    from cms.papers.models import Paper, PaperAuthor

    paper = Paper.objects.get(title__startswith="FabricPerf:")
    paper.doi = "10.1145/3718958.0000001"
    paper.save()
    PaperAuthor.objects.create(paper=paper, name="Zoë Müller", given="Zoë", family="Müller")
    PaperAuthor.objects.create(paper=paper, name="陳大文", given="大文", family="陳", sort_order=1)
    return paper


@pytest.fixture
def clipboard_page(browser, seeded_live_server):
    """A page whose context may read and write the clipboard (as a visitor who allowed it)."""
    context = browser.new_context(viewport=DESKTOP, locale="en-US")
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=seeded_live_server.url)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


def api_text(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as response:  # the live server, on this machine
        return response.read().decode("utf-8")


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_cite_copies_bibtex(
    seeded_live_server, clipboard_page, cited_fabricperf, axe_violations, lang
):
    page = clipboard_page
    page.goto(seeded_live_server.url + DIGEST_PATH[lang])
    page.wait_for_selector("main[aria-busy=false] .paper")
    ui = UI[lang]

    page.get_by_text(ui["cite"], exact=True).click()
    menu = page.locator("select.cite__format")
    assert menu.locator("option").all_inner_texts() == ["BibTeX", "RIS", "CSL-JSON", "ACM", "IEEE"]
    output = page.locator(".cite__output")
    page.wait_for_function(
        "() => document.querySelector('.cite__output').textContent.startsWith('@inproceedings')"
    )
    page.get_by_role("button", name=ui["copy"]).click()
    page.wait_for_function(
        "text => document.querySelector('.cite__status').textContent === text", arg=ui["copied"]
    )
    copied = page.evaluate("navigator.clipboard.readText()")
    expected = api_text(
        f"{seeded_live_server.url}/api/v2/papers/{cited_fabricperf.pk}/cite/?format=bibtex"
    )
    assert copied == expected == output.text_content()
    assert "Müller, Zoë" in copied and "陳, 大文" in copied
    assert "doi = {10.1145/3718958.0000001}" in copied
    assert axe_violations(page) == []

    # Another format replaces the text, and copying takes that one.
    menu.select_option("ieee")
    page.wait_for_function(
        "() => document.querySelector('.cite__output').textContent.includes('doi: 10.1145')"
    )
    page.get_by_role("button", name=ui["copy"]).click()
    page.wait_for_function(
        "() => document.querySelector('.cite__status').textContent.includes('IEEE')"
    )
    assert "“FabricPerf:" in page.evaluate("navigator.clipboard.readText()")
