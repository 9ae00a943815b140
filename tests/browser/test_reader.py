"""The reference reader in a real browser: index, filter, topic and digest pages, accessibility."""

import datetime
import json
import unicodedata

import pytest

from cms.digests.models import DigestPage
from cms.papers.models import Paper, PaperNotice
from cms.papers.signals import papers_changed
from cms.seed.parse import DEFAULT_SEED_PATH
from tests.support.factories import PUBLISHED, DigestPageFactory

from .conftest import DESKTOP, PHONE

pytestmark = pytest.mark.browser

SEED = json.loads(DEFAULT_SEED_PATH.read_text(encoding="utf-8"))
SITE = SEED["site"]
OTHER = {"en": "zh-hant", "zh-hant": "en"}

CARDS_JS = """cards => cards.filter((card) => !card.hidden).map((card) => ({
    name: card.querySelector(".card__name").textContent,
    meta: card.querySelector(".card__meta").textContent,
    titles: [...card.querySelectorAll(".card__title")].map((el) => el.textContent),
    otherLang: card.querySelector(".card__title--other").lang,
    affiliations: card.querySelector(".card__affiliations")?.textContent ?? "",
    summary: card.querySelector(".card__summary").textContent,
}))"""


def seed_digests():
    for topic in SEED["topics"]:
        yield from topic["digests"]


def expected_card(digest: dict, lang: str) -> dict:
    track = f" ({digest['track']})" if digest["track"] else ""
    minutes = SITE["reading_time"][lang].format(n=digest["reading_minutes"])
    return {
        "name": digest["short_name"],
        "meta": f"{digest['venue']} {digest['year']}{track} · {minutes}",
        "titles": [digest["title"][lang], digest["title"][OTHER[lang]]],
        "otherLang": "zh-Hant" if lang == "en" else "en",
        "affiliations": ", ".join(digest["affiliations"]),
        "summary": digest["summary"][lang],
    }


def fold(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower()


def seed_matches(word: str) -> list[str]:
    """Short names whose text in either language contains `word`, as the filter should find."""
    found = []
    for digest in seed_digests():
        track = f" ({digest['track']})" if digest["track"] else ""
        haystack = "\n".join(
            [
                digest["short_name"],
                *digest["title"].values(),
                *digest["summary"].values(),
                f"{digest['venue']} {digest['year']}{track}",
                ", ".join(digest["affiliations"]),
            ]
        )
        if fold(word) in fold(haystack):
            found.append(digest["short_name"])
    return found


def open_reader(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("main[aria-busy=false]")


def switch_language(page, lang: str) -> None:
    page.locator(f"button[data-lang='{lang}']").click()
    page.wait_for_function(
        "lang => document.documentElement.lang === lang && "
        "document.querySelector('main').getAttribute('aria-busy') === 'false'",
        arg={"en": "en", "zh-hant": "zh-Hant"}[lang],
    )


def assert_index_matches_seed(page, lang: str) -> None:
    assert page.locator("h1").inner_text() == SITE["title"][lang]
    assert page.locator(".lead").inner_text() == SITE["intro"][lang]
    assert page.locator(".counts").inner_text() == SITE["counts"][lang]
    topic_links = page.locator(".topic-nav a")
    assert topic_links.all_inner_texts() == [topic["name"][lang] for topic in SEED["topics"]]
    assert page.locator("section.topic-section h2").all_inner_texts() == [
        topic["name"][lang] for topic in SEED["topics"]
    ]
    cards = page.locator(".card").evaluate_all(CARDS_JS)
    assert len(cards) == 53
    assert cards == [expected_card(digest, lang) for digest in seed_digests()]


def test_index_shows_every_digest_in_both_languages(seeded_live_server, page, screenshot):
    open_reader(page, seeded_live_server.url + "/")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert_index_matches_seed(page, "en")
    screenshot(page, "reader", "index-en-phone")
    page.set_viewport_size(DESKTOP)
    screenshot(page, "reader", "index-en-desktop")

    switch_language(page, "zh-hant")
    assert_index_matches_seed(page, "zh-hant")
    assert page.locator("button[data-lang='zh-hant']").get_attribute("aria-pressed") == "true"
    screenshot(page, "reader", "index-zh-hant-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "reader", "index-zh-hant-phone")

    # The choice is remembered across visits.
    page.reload()
    page.wait_for_selector("main[aria-busy=false]")
    assert page.evaluate("document.documentElement.lang") == "zh-Hant"
    assert page.locator("h1").inner_text() == SITE["title"]["zh-hant"]


def test_filter_narrows_cards_in_either_language(seeded_live_server, page):
    open_reader(page, seeded_live_server.url + "/")
    box = page.get_by_label("Filter digests")

    # Chinese and English words both work whatever the page's language is.
    for word in ("壅塞", "optical", "Peking University"):
        expected = seed_matches(word)
        assert 0 < len(expected) < 53, word
        box.fill(word)
        visible = page.locator(".card").evaluate_all(CARDS_JS)
        assert [card["name"] for card in visible] == expected, word
        assert page.locator("[role=status]").inner_text() == ""

    box.fill("no such digest anywhere")
    assert page.locator(".card:visible").count() == 0
    assert page.locator("[role=status]").inner_text() == SITE["empty_filter"]["en"]
    assert page.locator("section.topic-section:visible").count() == 0

    # The query survives a language switch, and the message follows the language.
    switch_language(page, "zh-hant")
    assert page.get_by_label("篩選導讀").input_value() == "no such digest anywhere"
    assert page.locator("[role=status]").inner_text() == SITE["empty_filter"]["zh-hant"]

    page.get_by_label("篩選導讀").fill("壅塞")
    visible = page.locator(".card").evaluate_all(CARDS_JS)
    assert [card["name"] for card in visible] == seed_matches("壅塞")
    page.get_by_label("篩選導讀").fill("")
    assert page.locator(".card:visible").count() == 53


@pytest.fixture
def synced_fabricperf():
    """FabricPerf's paper as the sync worker leaves it: authors, DOI and a link."""
    from cms.papers.models import Paper, PaperAuthor, PaperLink

    paper = Paper.objects.get(title__startswith="FabricPerf:")
    paper.doi = "10.1145/3718958.0000001"
    paper.save()
    PaperAuthor.objects.create(
        paper=paper,
        name="Ada Example",
        orcid="0000-0002-1825-0097",
        affiliations=["University of Hong Kong"],
        sort_order=0,
    )
    PaperAuthor.objects.create(
        paper=paper, name="Ben Sample", affiliations=["University of Hong Kong"], sort_order=1
    )
    PaperLink.objects.create(
        paper=paper, label="Publisher page", url="https://dl.acm.org/doi/10.1145/3718958.0000001"
    )
    return paper


def test_topic_and_digest_pages_show_synced_metadata(
    seeded_live_server, page, screenshot, synced_fabricperf
):
    open_reader(page, seeded_live_server.url + "/")
    page.locator(".topic-nav").get_by_role("link", name="Inside the server").click()
    page.wait_for_url("**/inside-the-server/")
    page.wait_for_selector("main[aria-busy=false] .comparison-table")

    table = page.locator(".comparison-table")
    assert table.locator("thead th").all_inner_texts() == [
        "Digest",
        "Venue",
        "Year",
        "Authors and affiliations",
        "Reading time",
    ]
    rows = table.locator("tbody tr")
    assert rows.count() == 3
    assert rows.locator("th a").all_inner_texts() == ["FabricPerf", "InfiniteHBD", "PingPoint"]
    fabricperf = rows.nth(0)
    assert fabricperf.locator("td").all_inner_texts() == [
        "SIGCOMM",
        "2026",
        "Ada Example, Ben Sample\nUniversity of Hong Kong",
        "11 min",
    ]
    assert rows.nth(1).locator("td").nth(2).inner_text() == (
        "Peking University, StepFun, Lightelligence"
    )
    screenshot(page, "reader", "topic-en-phone")

    fabricperf.get_by_role("link", name="FabricPerf").click()
    page.wait_for_url("**/inside-the-server/fabricperf/")
    page.wait_for_selector("main[aria-busy=false] .paper")
    assert page.locator("h1").inner_text().startswith("FabricPerf: Measuring NIC-less")
    assert page.locator(".other-title").get_attribute("lang") == "zh-Hant"
    assert page.locator(".meta").inner_text() == "SIGCOMM 2026 · 11 min"
    authors = page.locator("ol.authors li")
    assert authors.locator(".author__name").all_inner_texts() == ["Ada Example", "Ben Sample"]
    orcid = authors.nth(0).get_by_role("link", name="ORCID of Ada Example")
    assert orcid.get_attribute("href") == "https://orcid.org/0000-0002-1825-0097"
    doi = page.get_by_role("link", name="10.1145/3718958.0000001")
    assert doi.get_attribute("href") == "https://doi.org/10.1145/3718958.0000001"
    publisher = page.get_by_role("link", name="Publisher page")
    assert publisher.get_attribute("href") == "https://dl.acm.org/doi/10.1145/3718958.0000001"
    screenshot(page, "reader", "digest-en-phone")

    switch_language(page, "zh-hant")
    assert page.locator("h1").inner_text().startswith("FabricPerf:以 GPU 通訊")
    assert page.locator(".meta").inner_text() == "SIGCOMM 2026 · 11 分鐘"
    assert page.locator("ol.authors .author__name").all_inner_texts() == [
        "Ada Example",
        "Ben Sample",
    ]
    page.set_viewport_size(DESKTOP)
    screenshot(page, "reader", "digest-zh-hant-desktop")

    page.go_back()  # client-side history: back to the topic, now in Chinese
    page.wait_for_selector("main[aria-busy=false] .comparison-table")
    assert page.locator("h1").inner_text() == "伺服器內部"
    first_row = page.locator(".comparison-table tbody tr").nth(0)
    assert "Ada Example, Ben Sample" in first_row.inner_text()
    screenshot(page, "reader", "topic-zh-hant-desktop")


@pytest.fixture
def same_slug_in_another_topic():
    """A live digest whose slug is also FabricPerf's: Wagtail keeps slugs unique among
    siblings only, so a digest in another topic may have it, in both languages."""
    from wagtail.models import Locale

    from cms.digests.models import TopicPage

    topic = TopicPage.objects.get(slug="workloads-and-traces", locale__language_code="en")
    digest = DigestPageFactory(
        parent=topic,
        title="FabricPerf in production traces",
        slug="fabricperf",
        short_name="FabricTrace",
        reading_minutes=4,
        summary="Same address name as FabricPerf, in another topic.",
        revision=PUBLISHED,
    )
    chinese = digest.copy_for_translation(Locale.objects.get(language_code="zh-hant"))
    chinese.title = "生產環境追蹤中的 FabricPerf"
    chinese.save_revision().publish()
    return digest


def test_a_digest_sharing_its_slug_with_another_topics_digest_opens(
    seeded_live_server, page, same_slug_in_another_topic
):
    open_reader(page, seeded_live_server.url + "/workloads-and-traces/")
    page.locator(".comparison-table").get_by_role("link", name="FabricTrace").click()
    page.wait_for_url("**/workloads-and-traces/fabricperf/")
    page.wait_for_selector("main[aria-busy=false] .digest")
    assert page.locator("h1").inner_text() == "FabricPerf in production traces"
    assert page.locator(".other-title").inner_text() == "生產環境追蹤中的 FabricPerf"

    switch_language(page, "zh-hant")
    assert page.locator("h1").inner_text() == "生產環境追蹤中的 FabricPerf"
    assert page.locator(".other-title").inner_text() == "FabricPerf in production traces"

    # The first digest with that slug still opens as itself, with its own translation.
    open_reader(page, seeded_live_server.url + "/inside-the-server/fabricperf/")
    assert page.locator("h1").inner_text().startswith("FabricPerf:以 GPU 通訊")
    assert page.locator(".other-title").inner_text().startswith("FabricPerf: Measuring")


NOT_TRANSLATED_YET = "尚未翻譯：以下為英文原文。"  # noqa: RUF001 (the reader's punctuation)


@pytest.fixture
def untranslated_digest():
    """An English digest published before its translation, in "Inside the server"."""
    from cms.digests.models import TopicPage

    topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code="en")
    return DigestPageFactory(
        parent=topic,
        title="A digest not yet translated",
        slug="not-yet-translated",
        short_name="Untranslated",
        reading_minutes=3,
        summary="English only, for now.",
        revision=PUBLISHED,
    )


def test_a_chinese_reader_sees_an_untranslated_digest_in_english_noted(
    seeded_live_server, page, axe_violations, screenshot, untranslated_digest
):
    """The API's `fallback=en`: the topic lists the digest, flagged, and its page opens in
    English under the Chinese address, saying it is not translated yet."""
    open_reader(page, seeded_live_server.url + "/zh-hant/inside-the-server/")
    rows = page.locator(".comparison-table tbody tr")
    assert rows.locator("th a").all_inner_texts() == [
        "FabricPerf",
        "InfiniteHBD",
        "PingPoint",
        "Untranslated",  # after the translated ones
    ]
    last = rows.nth(3)
    assert last.locator(".flag--fallback").inner_text() == "尚未翻譯"
    assert last.locator(".comparison-table__title").get_attribute("lang") == "en"
    assert rows.nth(0).locator(".flag").count() == 0

    last.get_by_role("link", name="Untranslated").click()
    page.wait_for_url("**/zh-hant/inside-the-server/not-yet-translated/")
    page.wait_for_selector("main[aria-busy=false] .digest")
    assert shown_language(page) == "zh-Hant"  # the reader's chrome stays Chinese
    assert page.get_by_role("note").inner_text() == NOT_TRANSLATED_YET
    heading = page.locator("h1")
    assert heading.inner_text() == "A digest not yet translated"
    assert heading.get_attribute("lang") == "en"
    assert page.locator(".lead").get_attribute("lang") == "en"
    assert page.locator(".other-title").count() == 0  # no second title: it is the same page
    assert axe_violations(page) == []
    screenshot(page, "reader", "digest-fallback-zh-hant-phone")

    # Opened at its address directly, the shell is served (200), naming the English address.
    response = page.goto(seeded_live_server.url + "/zh-hant/inside-the-server/not-yet-translated/")
    page.wait_for_selector("main[aria-busy=false] .digest")
    assert response.status == 200
    canonical = page.locator("link[rel=canonical]").get_attribute("href")
    assert canonical.endswith("/inside-the-server/not-yet-translated/")
    assert "/zh-hant/" not in canonical

    # English readers see no note.
    switch_language(page, "en")
    assert path_of(page) == "/inside-the-server/not-yet-translated/"
    assert page.locator(".fallback-note").count() == 0
    assert page.locator("h1").get_attribute("lang") is None


def test_a_topic_not_yet_published_in_chinese_is_shown_in_english_noted(seeded_live_server, page):
    from cms.digests.models import TopicPage

    TopicPage.objects.get(slug="inside-the-server", locale__language_code="zh-hant").unpublish()
    open_reader(page, seeded_live_server.url + "/zh-hant/inside-the-server/")
    assert page.get_by_role("note").inner_text() == NOT_TRANSLATED_YET
    assert page.locator("h1").inner_text() == "Inside the server"
    assert page.locator("h1").get_attribute("lang") == "en"
    assert page.locator(".comparison-table tbody tr").count() == 3


def test_a_page_english_lacks_leads_to_the_other_language(seeded_live_server, page):
    """No fallback into Chinese: an English reader at a digest only Chinese still shows (its
    English page unpublished) is told so and given the Chinese version."""

    DigestPage.objects.get(slug="fabricperf", locale__language_code="en").unpublish()
    open_reader(page, seeded_live_server.url + "/zh-hant/inside-the-server/fabricperf/")
    switch_language(page, "en")
    assert path_of(page) == "/inside-the-server/fabricperf/"
    assert page.locator("h1").inner_text() == "This page has no English version yet."
    link = page.get_by_role("link", name="FabricPerf:以 GPU 通訊", exact=False)
    assert link.get_attribute("lang") == "zh-Hant"
    assert link.get_attribute("href") == "/zh-hant/inside-the-server/fabricperf/"

    link.click()
    page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'")
    page.wait_for_selector("main[aria-busy=false] .digest")
    assert page.locator("h1").inner_text().startswith("FabricPerf:以 GPU 通訊")


# A retracted or corrected paper (issue 42): the API's `retracted` and `updates` on the paper.
# test_paper_trust.py follows a notice from the sync's upstream to the reader end to end.

NOTICES = [
    {
        "type": "correction",
        "doi": "10.1145/3718958.0000002",
        "date": "2026-03-01",
        "source": "publisher",
        "label": "Correction",
    },
    {
        "type": "retraction",
        "doi": "10.1145/3718958.0000003",
        "date": "2026-05-02",
        "source": "retraction-watch",
        "label": "Retraction",
    },
    {
        "type": "new_version",
        "doi": None,
        "date": None,
        "source": "publisher",
        "label": "New version",
    },
]


def with_notices(slug: str, notices: list[dict]) -> None:
    """The paper of the English digest `slug` with `notices` (as the API shows them) stored as
    the sync stores them, and announced as its writer announces them."""
    paper = DigestPage.objects.get(slug=slug, locale__language_code="en").paper
    for notice in notices:
        PaperNotice.objects.create(
            paper=paper,
            notice_doi=notice["doi"] or "",
            update_type=notice["type"],
            label=notice["label"],
            source=notice["source"],
            updated_on=datetime.date.fromisoformat(notice["date"]) if notice["date"] else None,
        )
    papers_changed.send(sender=Paper, paper_ids=[paper.pk], fields={paper.pk: ["notices"]})


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_a_retracted_paper_is_flagged_in_its_topic_and_bannered_on_its_digest(
    seeded_live_server, page, axe_violations, screenshot, lang
):
    with_notices("fabricperf", NOTICES)
    prefix = "" if lang == "en" else "/zh-hant"
    open_reader(page, seeded_live_server.url + prefix + "/inside-the-server/")
    rows = page.locator(".comparison-table tbody tr")
    flag = {"en": "Retracted", "zh-hant": "已撤回"}[lang]
    assert rows.nth(0).locator(".flag--retracted").inner_text() == flag
    assert rows.nth(1).locator(".flag").count() == 0

    open_reader(page, seeded_live_server.url + prefix + "/inside-the-server/fabricperf/")
    banner = page.locator(".notice-banner")
    assert banner.get_attribute("role") == "note"
    title = {"en": "This paper has been retracted.", "zh-hant": "這篇論文已被撤回。"}[lang]
    assert banner.locator(".notice-banner__title").inner_text() == title
    links = banner.get_by_role("link")
    assert [links.nth(n).get_attribute("href") for n in range(links.count())] == [
        "https://doi.org/10.1145/3718958.0000002",
        "https://doi.org/10.1145/3718958.0000003",
    ]
    names = {
        "en": ["Correction (2026-03-01)", "Retraction (2026-05-02)", "New version"],
        "zh-hant": ["更正 (2026-03-01)", "撤回聲明 (2026-05-02)", "New version"],
    }[lang]
    assert banner.locator("li").all_inner_texts() == names
    assert banner.locator("li").nth(2).locator("span").get_attribute("lang") == "en"
    # Before the digest's text: a reader learns it first.
    assert page.evaluate(
        "document.querySelector('.notice-banner').compareDocumentPosition("
        "document.querySelector('.lead')) & Node.DOCUMENT_POSITION_FOLLOWING"
    )
    assert axe_violations(page) == []
    screenshot(page, "reader", f"digest-retracted-{lang}-phone")


def test_a_corrected_paper_says_so_and_a_paper_without_notices_says_nothing(
    seeded_live_server, page
):
    with_notices("fabricperf", NOTICES[:1])
    open_reader(page, seeded_live_server.url + "/inside-the-server/fabricperf/")
    banner = page.locator(".notice-banner")
    assert banner.locator(".notice-banner__title").inner_text() == (
        "A correction to this paper has been published."
    )
    assert banner.get_by_role("link").inner_text() == "Correction (2026-03-01)"

    open_reader(page, seeded_live_server.url + "/inside-the-server/pingpoint/")
    assert page.locator(".notice-banner").count() == 0
    open_reader(page, seeded_live_server.url + "/inside-the-server/")
    assert (
        page.locator(".comparison-table tbody tr").nth(0).locator(".flag--corrected").inner_text()
        == "Corrected"
    )


def test_the_chapter_to_finish_first_opens_in_the_topics_language(seeded_live_server, page):
    """The link to that chapter is one URL for both languages (a synchronized field); an
    editor pastes the English page's address, and a Chinese reader must stay in Chinese."""
    from cms.digests.models import TopicPage

    url = seeded_live_server.url + "/inside-the-server/pingpoint/"
    for language, text in (("en", "Finish PingPoint first."), ("zh-hant", "先讀完 PingPoint。")):
        topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code=language)
        topic.finish_first = text
        topic.finish_first_url = url
        topic.save_revision().publish()

    open_reader(page, seeded_live_server.url + "/zh-hant/inside-the-server/")
    section = page.locator(".finish-first")
    assert section.locator("p").first.inner_text() == "先讀完 PingPoint。"
    section.get_by_role("link").click()
    page.wait_for_url("**/zh-hant/inside-the-server/pingpoint/")
    page.wait_for_selector("main[aria-busy=false] .digest")
    assert shown_language(page) == "zh-Hant"
    assert page.locator("h1").inner_text() == "以 PingPoint 理解並剖析加速器的 chiplet 網路"

    open_reader(page, seeded_live_server.url + "/inside-the-server/")
    link = page.locator(".finish-first").get_by_role("link")
    assert link.get_attribute("href") == "/inside-the-server/pingpoint/"

    # Another address of this server (a document) is left as the editor gave it.
    document = seeded_live_server.url + "/documents/1/reading-order.pdf"
    topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code="zh-hant")
    topic.finish_first_url = document
    topic.save_revision().publish()
    open_reader(page, seeded_live_server.url + "/zh-hant/inside-the-server/")
    link = page.locator(".finish-first").get_by_role("link")
    assert link.get_attribute("href") == document
    assert link.get_attribute("data-route") is None


def test_unknown_address_says_so(seeded_live_server, page):
    response = page.goto(seeded_live_server.url + "/inside-the-server/no-such-digest/")
    page.wait_for_selector("main[aria-busy=false]")
    assert response.status == 404
    assert page.locator("h1").inner_text() == "There is no page at this address."


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_no_serious_accessibility_issues(seeded_live_server, page, axe_violations, lang):
    page.add_init_script(f"localStorage.setItem('reader.lang', '{lang}')")
    for path in ("/", "/inside-the-server/", "/inside-the-server/fabricperf/"):
        open_reader(page, seeded_live_server.url + path)
        assert (
            page.evaluate("document.documentElement.lang")
            == {"en": "en", "zh-hant": "zh-Hant"}[lang]
        )
        assert axe_violations(page) == [], path


# Each language has its own address: /zh-hant/... is Chinese, the same path without it English.

HTML_LANG = {"en": "en", "zh-hant": "zh-Hant"}


def shown_language(page) -> str:
    return page.evaluate("document.documentElement.lang")


def path_of(page) -> str:
    return page.evaluate("location.pathname + location.search + location.hash")


def test_a_chinese_address_opens_in_chinese_whatever_was_chosen_before(seeded_live_server, page):

    page.add_init_script("localStorage.setItem('reader.lang', 'en')")
    chinese = DigestPage.objects.get(slug="fabricperf", locale__language_code="zh-hant")
    assert chinese.url == "/zh-hant/inside-the-server/fabricperf/"  # Wagtail's own address

    open_reader(page, seeded_live_server.url + chinese.url)

    assert shown_language(page) == "zh-Hant"
    assert page.locator("h1").inner_text().startswith("FabricPerf:以 GPU 通訊")
    assert page.locator("button[data-lang='zh-hant']").get_attribute("aria-pressed") == "true"
    assert path_of(page) == chinese.url
    # Showing the address's language does not overwrite the visitor's own choice.
    assert page.evaluate("localStorage.getItem('reader.lang')") == "en"


def test_the_switch_moves_between_the_two_addresses(seeded_live_server, page, screenshot):
    open_reader(page, seeded_live_server.url + "/inside-the-server/?utm_source=mail#main")
    assert shown_language(page) == "en"
    entries = page.evaluate("history.length")

    switch_language(page, "zh-hant")
    assert path_of(page) == "/zh-hant/inside-the-server/?utm_source=mail#main"
    assert page.locator("h1").inner_text() == "伺服器內部"
    assert page.evaluate("localStorage.getItem('reader.lang')") == "zh-hant"
    screenshot(page, "reader", "topic-zh-hant-address-phone")

    switch_language(page, "en")
    assert path_of(page) == "/inside-the-server/?utm_source=mail#main"
    assert page.locator("h1").inner_text() == "Inside the server"
    assert page.evaluate("localStorage.getItem('reader.lang')") == "en"
    # The same page in the other language replaces the history entry rather than adding one.
    assert page.evaluate("history.length") == entries

    switch_language(page, "zh-hant")
    page.reload()
    page.wait_for_selector("main[aria-busy=false]")
    assert path_of(page) == "/zh-hant/inside-the-server/?utm_source=mail#main"
    assert page.locator("h1").inner_text() == "伺服器內部"


def test_in_app_links_keep_the_language_prefix(seeded_live_server, page):
    open_reader(page, seeded_live_server.url + "/zh-hant/")
    assert page.locator(".site-title").get_attribute("href") == "/zh-hant/"
    hrefs = page.locator("a[data-route]").evaluate_all("links => links.map((a) => a.pathname)")
    assert len(hrefs) > 53 and all(href.startswith("/zh-hant/") for href in hrefs)

    page.locator(".topic-nav").get_by_role("link", name="伺服器內部").click()
    page.wait_for_url("**/zh-hant/inside-the-server/")
    page.wait_for_selector("main[aria-busy=false] .comparison-table")
    assert shown_language(page) == "zh-Hant"
    assert page.locator(".breadcrumb a").get_attribute("href") == "/zh-hant/"

    page.locator(".comparison-table").get_by_role("link", name="FabricPerf").click()
    page.wait_for_url("**/zh-hant/inside-the-server/fabricperf/")
    page.wait_for_selector("main[aria-busy=false] .paper")
    assert page.locator(".breadcrumb a").evaluate_all("links => links.map((a) => a.pathname)") == [
        "/zh-hant/",
        "/zh-hant/inside-the-server/",
    ]
    assert page.locator(".meta").inner_text() == "SIGCOMM 2026 · 11 分鐘"

    page.go_back()
    page.wait_for_selector("main[aria-busy=false] .comparison-table")
    assert path_of(page) == "/zh-hant/inside-the-server/"
    assert page.locator("h1").inner_text() == "伺服器內部"


def test_an_old_lang_link_lands_on_the_chinese_address(seeded_live_server, page):
    open_reader(page, seeded_live_server.url + "/inside-the-server/fabricperf/?lang=zh-hant")

    assert path_of(page) == "/zh-hant/inside-the-server/fabricperf/"
    assert shown_language(page) == "zh-Hant"
    assert page.locator("h1").inner_text().startswith("FabricPerf:以 GPU 通訊")


def test_an_unprefixed_address_follows_the_visitors_choice_not_their_reading(
    seeded_live_server, page
):
    # Reading a Chinese page someone linked to is not choosing Chinese...
    open_reader(page, seeded_live_server.url + "/zh-hant/inside-the-server/")
    open_reader(page, seeded_live_server.url + "/inside-the-server/")
    assert shown_language(page) == "en"
    assert path_of(page) == "/inside-the-server/"

    # ...choosing it with the switch is: an address without a prefix then opens in Chinese,
    # and the address becomes the Chinese page's, so it can be shared as it is shown.
    switch_language(page, "zh-hant")
    open_reader(page, seeded_live_server.url + "/inside-the-server/fabricperf/")
    assert shown_language(page) == "zh-Hant"
    assert path_of(page) == "/zh-hant/inside-the-server/fabricperf/"


def test_the_browsers_language_picks_the_language_of_an_unprefixed_address(
    seeded_live_server, browser
):
    context = browser.new_context(viewport=PHONE, locale="zh-TW")
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda error: errors.append(str(error)))
        open_reader(page, seeded_live_server.url + "/")
        assert shown_language(page) == "zh-Hant"
        assert path_of(page) == "/zh-hant/"
        assert page.locator("h1").inner_text() == SITE["title"]["zh-hant"]
    finally:
        context.close()
    assert not errors


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_no_serious_accessibility_issues_at_each_languages_address(
    seeded_live_server, page, axe_violations, lang
):
    prefix = "/zh-hant" if lang == "zh-hant" else ""
    for path in ("/", "/inside-the-server/", "/inside-the-server/fabricperf/"):
        open_reader(page, seeded_live_server.url + prefix + path)
        assert shown_language(page) == HTML_LANG[lang]
        assert axe_violations(page) == [], prefix + path
