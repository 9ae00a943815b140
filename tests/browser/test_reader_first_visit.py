"""What a first-time reader (anonymous, on a phone) and an editor previewing a new page trip
over in the reader: the feed of the language shown, the preview banner of a never-published
page, where a digest's own text starts, and the "chapter to finish first" promise."""

import pytest
from django.contrib.auth import get_user_model
from wagtail.rich_text import RichText

from cms.digests.models import DigestPage, TopicPage
from cms.translation.policy.roles import EDITORS, TRANSLATORS
from tests.support.factories import add_draft_digest
from tests.support.users import member

from .conftest import PHONE
from .test_preview import admin_preview_src
from .test_reader import open_reader, switch_language

pytestmark = pytest.mark.browser

FEED = {"en": "/feed.atom", "zh-hant": "/zh-hant/feed.atom"}
FEED_TEXT = {"en": "Atom feed of new digests", "zh-hant": "新導讀的 Atom 訂閱"}


def assert_feed_of(page, base: str, lang: str) -> None:
    alternate = page.locator("link[rel=alternate][type='application/atom+xml']")
    assert alternate.count() == 1
    assert alternate.get_attribute("href") == FEED[lang]
    link = page.get_by_role("link", name=FEED_TEXT[lang])
    assert link.is_visible()
    assert link.get_attribute("href") == FEED[lang]
    # The address really is that language's feed.
    feed = page.request.get(base + FEED[lang])
    assert feed.ok
    assert f'xml:lang="{lang}"' in feed.text()


@pytest.mark.parametrize("first", ["en", "zh-hant"])
def test_the_feed_links_follow_the_language_switch(seeded_live_server, page, screenshot, first):
    other = "zh-hant" if first == "en" else "en"
    open_reader(page, seeded_live_server.url + ("/" if first == "en" else "/zh-hant/"))
    assert_feed_of(page, seeded_live_server.url, first)
    switch_language(page, other)
    assert_feed_of(page, seeded_live_server.url, other)
    page.get_by_role("link", name=FEED_TEXT[other]).scroll_into_view_if_needed()
    screenshot(page, "reader", f"feed-link-{first}-then-{other}-phone")


@pytest.mark.parametrize(
    ("lang", "role", "banner"),
    [
        (
            "en",
            EDITORS,
            "Preview of a page that has not been published yet: readers cannot see it.",
        ),
        ("zh-hant", TRANSLATORS, "尚未發布頁面的預覽\uff1a讀者還看不到這個頁面。"),
    ],
)
def test_the_preview_of_a_never_published_page_does_not_claim_a_published_version(
    seeded_live_server, page, screenshot, lang, role, banner
):
    user = member(role)
    topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code=lang)
    draft = add_draft_digest(topic, "A digest nobody has published", short_name="Unpublished")
    open_reader(page, seeded_live_server.url + admin_preview_src(draft, user))
    assert page.locator("h1").inner_text() == "A digest nobody has published"
    assert page.locator(".preview-banner").inner_text() == banner
    screenshot(page, "reader", f"preview-never-published-{lang}-phone")

    # A published page's draft still says readers see the published version.
    live = DigestPage.objects.get(slug="fabricperf", locale__language_code=lang)
    live.summary = "A summary being rewritten."
    live.save_revision(user=get_user_model().objects.get(pk=user.pk))
    open_reader(page, seeded_live_server.url + admin_preview_src(live, user))
    assert page.locator(".preview-banner").inner_text() != banner
    kept = page.locator(".preview-banner").inner_text()
    assert "published version" in kept or "已發布的版本" in kept


@pytest.fixture
def fabricperf_with_text_and_authors():
    """FabricPerf with a body of its own and a synced paper with authors, links and an abstract."""
    from cms.papers.models import PaperAuthor, PaperLink

    for lang in ("en", "zh-hant"):
        digest = DigestPage.objects.get(slug="fabricperf", locale__language_code=lang)
        digest.body = [
            ("paragraph", RichText(f"<p>The digest's own text, paragraph {n}.</p>"))
            for n in range(3)
        ]
        digest.save_revision().publish()
    paper = digest.paper
    paper.doi = "10.1145/3718958.0000001"
    paper.abstract = "An abstract. " * 40
    paper.save()
    for n in range(8):
        PaperAuthor.objects.create(
            paper=paper,
            name=f"Author Number{n}",
            affiliations=["University of Hong Kong", "Another Institute of Technology"],
            sort_order=n,
        )
    PaperLink.objects.create(
        paper=paper, label="Publisher page", url="https://dl.acm.org/doi/10.1145/3718958.0000001"
    )


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_a_digests_own_text_starts_on_the_first_phone_screen(
    seeded_live_server, page, screenshot, fabricperf_with_text_and_authors, lang
):
    prefix = "" if lang == "en" else "/zh-hant"
    open_reader(page, seeded_live_server.url + prefix + "/inside-the-server/fabricperf/")
    prose = page.locator(".digest .prose")
    paper = page.locator(".digest .paper")
    assert prose.inner_text().startswith("The digest's own text, paragraph 0.")
    assert paper.locator(".authors li").count() == 8  # the paper block is all still there
    prose_top = prose.bounding_box()["y"]
    assert prose_top < PHONE["height"], "the digest's text starts below the first phone screen"
    assert prose_top < paper.bounding_box()["y"]
    screenshot(page, "reader", f"digest-text-first-{lang}-phone")


FINISH_FIRST_LABEL = {"en": "Finish this chapter first: ", "zh-hant": "先讀完這一章\uff1a"}


@pytest.mark.parametrize("lang", ["en", "zh-hant"])
def test_the_index_promises_a_chapter_to_finish_first_only_where_a_topic_names_one(
    seeded_live_server, page, screenshot, lang
):
    prefix = "" if lang == "en" else "/zh-hant"
    open_reader(page, seeded_live_server.url + prefix + "/")
    text = page.locator("main").inner_text()
    assert "finish first" not in text.lower()
    assert "先讀完" not in text
    assert FINISH_FIRST_LABEL[lang].strip() not in text

    said = {"en": "Finish PingPoint first.", "zh-hant": "先讀完 PingPoint。"}[lang]
    topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code=lang)
    topic.finish_first = said
    topic.save_revision().publish()
    open_reader(page, seeded_live_server.url + prefix + "/")
    notes = page.locator(".topic-section__finish-first")
    assert notes.count() == 1
    assert notes.inner_text() == FINISH_FIRST_LABEL[lang] + said
    section = page.locator("section.topic-section", has=notes)
    assert section.locator("h2").inner_text() == topic.title
    screenshot(page, "reader", f"index-finish-first-{lang}-phone")
