"""The Atom feeds: one per language, read by a feed parser, live public digests only."""

import html
import time

import feedparser
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from django.utils.http import http_date
from django.utils.translation import gettext as _
from django.utils.translation import override
from wagtail.models import Locale, PageViewRestriction

from cms.digests.models import DigestPage
from tests.support.content import digest, topic_of, translation
from tests.support.factories import DRAFT, PUBLISHED, DigestPageFactory
from tests.support.notices import CONCERN, CORRECTION, RETRACTION, add_notice

pytestmark = pytest.mark.django_db

FEEDS = {"en": "/feed.atom", "zh-hant": "/zh-hant/feed.atom"}


def read_feed(client, language: str) -> feedparser.FeedParserDict:
    response = client.get(FEEDS[language])
    assert response.status_code == 200
    assert response["Content-Type"] == "application/atom+xml; charset=utf-8"
    parsed = feedparser.parse(response.content)
    assert not parsed.bozo, parsed.get("bozo_exception")  # well-formed and a feed
    assert parsed.version == "atom10"
    return parsed


def entries_by_link(parsed) -> dict[str, feedparser.FeedParserDict]:
    return {entry.link: entry for entry in parsed.entries}


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_each_language_has_its_feed_of_its_digests(client, language):
    parsed = read_feed(client, language)
    assert parsed.feed.language == language
    assert parsed.feed.title == ("Research digests" if language == "en" else "研究導讀")
    assert parsed.feed.author  # RFC 4287: a feed names its author
    home = translation(digest("Odin"), language).get_parent().get_parent()
    assert parsed.feed.link == home.full_url  # on the pages' own host
    self_link = next(link.href for link in parsed.feed.links if link.rel == "self")
    assert self_link == f"{home.full_url}feed.atom"
    pages = DigestPage.objects.live().filter(locale__language_code=language)
    assert len(parsed.entries) == min(pages.count(), 50)
    entry = entries_by_link(parsed)[digest("Odin", language).full_url]
    odin = digest("Odin", language)
    assert entry.title == odin.title
    assert f"<p>{html.escape(odin.summary)}</p>" in entry.summary  # HTML, as type="html" says
    assert html.escape(odin.paper.title) in entry.summary
    assert {tag.term for tag in entry.tags} == {topic_of(odin).title, odin.paper.venue}
    assert entry.published_parsed and entry.updated_parsed
    assert entry.id.startswith("urn:uuid:")
    # The reader's pages link to the feed of their language.
    shell = client.get(odin.url).content.decode()
    assert f'type="application/atom+xml" href="{FEEDS[language]}"' in shell


def test_the_two_languages_give_their_entries_distinct_ids(client):
    english = {entry.id for entry in read_feed(client, "en").entries}
    chinese = {entry.id for entry in read_feed(client, "zh-hant").entries}
    assert english and chinese and not english & chinese


def test_an_updated_digest_shows_as_updated(client):
    odin = digest("Odin")
    before = entries_by_link(read_feed(client, "en"))[odin.full_url]
    assert before.updated_parsed == before.published_parsed
    odin.summary = "A revised summary."
    odin.save_revision().publish()
    odin.refresh_from_db()
    assert odin.last_published_at > odin.first_published_at
    parsed = read_feed(client, "en")
    after = entries_by_link(parsed)[odin.full_url]
    assert "A revised summary." in after.summary
    assert after.published_parsed == before.published_parsed
    assert after.updated_parsed > after.published_parsed
    assert parsed.feed.updated_parsed >= after.updated_parsed  # the feed's newest change


def test_a_paper_with_a_doi_is_linked_as_related(client):
    odin = digest("Odin")
    odin.paper.doi = "10.1145/0000000.0000001"
    odin.paper.save()
    entry = entries_by_link(read_feed(client, "en"))[odin.full_url]
    related = [link for link in entry.links if link.rel == "related"]
    assert [link.href for link in related] == ["https://doi.org/10.1145/0000000.0000001"]


def test_hidden_digests_are_in_no_feed(client):
    """A draft change, a never-published, an unpublished, a private digest, an unpublished
    translation and an untranslated placeholder: none reaches either feed."""
    topics = list(topic_of(digest("Odin")).get_siblings().live().specific())
    drafted, unpublished, private = (
        topics[0].get_children().specific()[0],
        topics[1].get_children().specific()[0],
        topics[1].get_children().specific()[1],
    )
    drafted.title = "Leaked draft title"
    drafted.save_revision()
    unpublished.unpublish()
    PageViewRestriction.objects.create(
        page=private, restriction_type=PageViewRestriction.PASSWORD, password="secret"
    )
    chinese_only_hidden = translation(digest("Odin"), "zh-hant")
    chinese_only_hidden.unpublish()
    DigestPageFactory(
        parent=topics[2],
        title="Never published",
        short_name="Never",
        reading_minutes=1,
        summary="x",
        live=False,
        revision=DRAFT,
    )
    solo = DigestPageFactory(
        parent=topics[2],
        title="Only in English",
        short_name="Solo",
        reading_minutes=4,
        summary="y",
        revision=PUBLISHED,
    )
    placeholder = solo.create_alias(
        parent=translation(topics[2], "zh-hant"),
        update_locale=Locale.objects.get(language_code="zh-hant"),
    )
    assert placeholder.live
    english = read_feed(client, "en")
    chinese = read_feed(client, "zh-hant")
    english_titles = {entry.title for entry in english.entries}
    chinese_titles = {entry.title for entry in chinese.entries}
    assert "Leaked draft title" not in english_titles | chinese_titles
    assert "Never published" not in english_titles | chinese_titles
    for page in (unpublished, private):
        assert page.title not in english_titles
    assert "Only in English" in english_titles  # live and public in English
    assert "Only in English" not in chinese_titles  # its placeholder is not a translation
    assert chinese_only_hidden.title not in chinese_titles
    assert digest("Odin").title in english_titles
    links = {entry.link for entry in english.entries + chinese.entries}
    assert placeholder.full_url not in links


def test_the_newest_come_first(client):
    odin = digest("Odin")
    odin.first_published_at = timezone.now() + timezone.timedelta(minutes=1)
    odin.save(update_fields=["first_published_at"])
    assert read_feed(client, "en").entries[0].title == odin.title


def test_a_feed_costs_the_same_queries_however_many_entries(client):
    """Topics and papers' links are read for the whole feed at once, not per entry."""
    topic = topic_of(digest("Odin"))

    def queries() -> int:
        read_feed(client, "en")  # Wagtail's per-site caches, read once after the writes
        with CaptureQueriesContext(connection) as captured:
            read_feed(client, "en")
        return len(captured)

    hidden = list(DigestPage.objects.filter(locale__language_code="en")[:40])
    for page in hidden:
        page.unpublish()
    few = queries()
    for index in range(5):
        DigestPageFactory(
            parent=topic,
            title=f"Extra {index}",
            short_name=f"X{index}",
            reading_minutes=1,
            summary="z",
            paper=hidden[index].paper,  # each with a paper whose link the entry shows
            revision=PUBLISHED,
        )
    assert queries() == few


@pytest.mark.parametrize(
    ("url", "language"),
    [("/feed.atom", "en"), ("/zh-hant/feed.atom", "zh-hant"), ("/sitemap.xml", "en")],
)
def test_a_client_revalidating_after_an_unpublish_gets_the_new_list(client, url, language):
    """The feeds and the sitemap are revalidated by their content (ETag), not by their newest
    item's date, which a removal does not move."""
    gone = digest("Odin") if language == "en" else translation(digest("Odin"), "zh-hant")
    first = client.get(url)
    assert gone.full_url in first.content.decode()
    assert not first.has_header("Last-Modified")
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304

    gone.unpublish()

    for headers in (
        {"HTTP_IF_MODIFIED_SINCE": http_date(time.time() + 1)},
        {"HTTP_IF_NONE_MATCH": first["ETag"]},
    ):
        again = client.get(url, **headers)
        assert again.status_code == 200
        assert gone.full_url not in again.content.decode()


def test_a_feed_built_while_another_site_s_is_built_links_its_own_site(client, monkeypatch):
    """One Feed instance serves every request; a request served in between (another thread,
    here a nested call) must not lend the first one its site."""
    from django.test import Client
    from wagtail.models import Site

    from cms.digests import feeds

    default = Site.objects.get(is_default_site=True)
    Site.objects.create(hostname="second.test", port=80, root_page=default.root_page)
    attach = feeds.attach_paper_parts
    calls, other_feeds = [], []

    def attach_while_another_request_is_served(papers):
        calls.append(1)
        if len(calls) == 1:  # the first request's items: serve the other site's feed now
            other_feeds.append(Client().get(FEEDS["en"], HTTP_HOST="second.test"))
        return attach(papers)

    monkeypatch.setattr(feeds, "attach_paper_parts", attach_while_another_request_is_served)
    parsed = read_feed(client, "en")
    assert other_feeds and b"http://second.test/" in other_feeds[0].content
    links = [entry.link for entry in parsed.entries]
    assert links and all(link.startswith(default.root_url + "/") for link in links), links[:2]
    assert parsed.feed.link.startswith(default.root_url)


def test_a_feed_that_lists_a_private_digest_is_private(client, django_user_model):
    """A signed-in reader passes a login restriction and their feed lists the private digest:
    it goes out `private`, so no shared cache hands it on to everyone."""
    private = digest("Odin")
    PageViewRestriction.objects.create(page=private, restriction_type=PageViewRestriction.LOGIN)
    anonymous = client.get(FEEDS["en"])
    assert "public" in anonymous["Cache-Control"]
    assert private.full_url not in entries_by_link(feedparser.parse(anonymous.content))
    client.force_login(django_user_model.objects.create_user("reader", password="x"))
    signed_in = client.get(FEEDS["en"])
    assert private.full_url in entries_by_link(feedparser.parse(signed_in.content))
    assert "private" in signed_in["Cache-Control"] and "public" not in signed_in["Cache-Control"]


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_a_retracted_paper_s_entry_is_marked_and_links_the_notice(client, language):
    """Title prefix, a paragraph linking each notice, a category, and `updated` moved to when
    the notice was first seen, so readers that already showed the entry show it again."""
    odin = digest("Odin", language)
    before = entries_by_link(read_feed(client, language))[odin.full_url]
    seen = timezone.now() + timezone.timedelta(minutes=5)
    add_notice(odin.paper, CORRECTION)
    add_notice(odin.paper, RETRACTION, first_seen_at=seen)

    parsed = read_feed(client, language)
    entry = entries_by_link(parsed)[odin.full_url]
    with override(language):
        prefix, category = _("[Retracted] %(title)s"), _("Retracted")
        sentence = _("This paper has been retracted.")
    assert prefix != "[Retracted] %(title)s" or language == "en"  # translated
    assert entry.title == prefix % {"title": odin.title}
    assert category in {tag.term for tag in entry.tags}
    assert html.escape(sentence) in entry.summary
    for notice in (RETRACTION, CORRECTION):
        assert f'<a href="https://doi.org/{notice["notice_doi"]}">' in entry.summary
        assert notice["updated_on"].isoformat() in entry.summary
    assert entry.published_parsed == before.published_parsed
    assert entry.updated_parsed == seen.utctimetuple()
    # Other entries are untouched.
    others = [e for e in parsed.entries if e.link != odin.full_url]
    assert others and not any(e.title.startswith(prefix.split("%")[0]) for e in others)


@pytest.mark.parametrize("language", ["en", "zh-hant"])
@pytest.mark.parametrize(
    ("notice", "marks"),
    [
        (CORRECTION, ("[Corrected] %(title)s", "Corrected", "This paper has been corrected.")),
        (
            CONCERN,
            (
                "[Expression of concern] %(title)s",
                "Expression of concern",
                "The publisher has issued an expression of concern.",
            ),
        ),
    ],
    ids=["correction", "concern"],
)
def test_a_corrected_or_questioned_paper_s_entry_is_marked(client, language, notice, marks):
    odin = digest("Odin", language)
    add_notice(odin.paper, notice)
    entry = entries_by_link(read_feed(client, language))[odin.full_url]
    with override(language):
        prefix, category, sentence = (_(text) for text in marks)
    assert entry.title == prefix % {"title": odin.title}
    assert category in {tag.term for tag in entry.tags}
    assert html.escape(sentence) in entry.summary
    assert f'<a href="https://doi.org/{notice["notice_doi"]}">' in entry.summary


def test_an_addendum_marks_nothing(client):
    odin = digest("Odin")
    add_notice(odin.paper, CORRECTION, update_type="addendum", label="Addendum")
    entry = entries_by_link(read_feed(client, "en"))[odin.full_url]
    assert entry.title == odin.title
    assert "doi.org/10.1016" not in entry.summary


def test_notices_cost_no_query_per_entry(client):
    """The notices come with the papers' batched reads (cms.papers.selectors)."""

    def queries() -> int:
        read_feed(client, "en")
        with CaptureQueriesContext(connection) as captured:
            read_feed(client, "en")
        return len(captured)

    none = queries()
    listed = DigestPage.objects.live().filter(locale__language_code="en")
    for page in listed.order_by("-first_published_at", "-pk")[:20]:  # the feed's newest
        add_notice(page.paper, RETRACTION)
    assert queries() == none
    marked = [e for e in read_feed(client, "en").entries if e.title.startswith("[Retracted] ")]
    assert len(marked) == 20
