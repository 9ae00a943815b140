"""Nothing but live, public, reachable pages reaches the API: not drafts, private pages,
unpublished pages or translations, nor pages below an unpublished topic - in any view."""

import base64

import pytest
from wagtail.models import Locale, PageViewRestriction

from tests.support.content import (
    DIGEST_TYPE,
    PAGES_URL,
    TOPIC_TYPE,
    digest,
    hide_one_of_each_kind,
    topic_of,
    translation,
)
from tests.support.factories import DRAFT, PUBLISHED, DigestPageFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def visible(api_get, api_items):
    """Every way a page can show up in the API, collected as a set of ids (and titles)."""

    def collect(page, *, by_title: bool = True) -> set[str]:
        seen = set()
        for language in ("en", "zh-hant"):
            for params in (
                {},
                {"fields": "*"},
                {"type": DIGEST_TYPE, "fields": "*"},
                {"type": TOPIC_TYPE, "fields": "*"},
                {"type": DIGEST_TYPE, "search": page.title.split()[0]},
                {"search": page.title.split()[0]},
            ):
                for item in api_items(locale=language, limit=100, **params):
                    if item["id"] == page.pk:
                        seen.add(f"list {language} {params}")
                    if by_title and item["title"] == page.title and item["id"] != page.pk:
                        seen.add(f"title leaked via {item['id']}")
                    for nested in item.get("digests", []):
                        if nested["id"] == page.pk or (by_title and nested["title"] == page.title):
                            seen.add(f"nested digests of topic {item['id']}")
                    if (item.get("topic") or {}).get("id") == page.pk:
                        seen.add(f"nested topic of digest {item['id']}")
        if api_get(f"{PAGES_URL}{page.pk}/").status_code != 404:
            seen.add("detail")
        if api_get(f"{PAGES_URL}find/", id=page.pk).status_code != 404:
            seen.add("find")
        if api_get(PAGES_URL, translation_of=page.pk).status_code != 400:
            seen.add("translation_of accepts it")
        return seen

    return collect


def test_a_published_digest_is_visible_everywhere(visible):
    seen = visible(digest("Odin"))
    assert "detail" in seen and "find" in seen
    assert "list en {'type': 'digests.DigestPage', 'fields': '*'}" in seen


def test_a_draft_change_never_shows(api_get, api_items):
    page = digest("Odin")
    live_title = page.title
    page.title = "Leaked draft title"
    page.summary = "Leaked draft summary"
    page.save_revision()
    detail = api_get(f"{PAGES_URL}{page.pk}/").json()
    assert (detail["title"], detail["summary"]) == (live_title, digest("Odin").summary)
    assert not api_items(type=DIGEST_TYPE, search="leaked")
    titles = {item["title"] for item in api_items(type=DIGEST_TYPE, fields="*", limit=100)}
    assert "Leaked draft title" not in titles
    topic = api_get(f"{PAGES_URL}{topic_of(page).pk}/").json()
    assert "Leaked draft title" not in {nested["title"] for nested in topic["digests"]}


def test_an_unpublished_digest_never_shows(visible):
    page = digest("Odin")
    page.unpublish()
    assert visible(page) == set()


def test_a_never_published_digest_never_shows(visible):
    topic = topic_of(digest("Odin"))
    draft = DigestPageFactory(
        parent=topic,
        title="Brand new draft digest",
        short_name="Drafty",
        reading_minutes=3,
        summary="Not ready.",
        live=False,
        revision=DRAFT,
    )
    assert visible(draft) == set()


def test_a_private_digest_never_shows(visible):
    page = digest("Odin")
    PageViewRestriction.objects.create(
        page=page, restriction_type=PageViewRestriction.PASSWORD, password="secret"
    )
    assert visible(page) == set()


def test_a_hidden_page_is_answered_as_a_missing_one(api_get):
    """The same 404 message as for an id no page has, naming no page type."""
    page = digest("Odin")
    PageViewRestriction.objects.create(page=page, restriction_type=PageViewRestriction.LOGIN)
    hidden = api_get(f"{PAGES_URL}{page.pk}/")
    missing = api_get(f"{PAGES_URL}999999/")
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json() == missing.json() == {"message": "No Page matches the given query."}


def test_a_private_topic_hides_itself_and_its_digests(visible):
    topic = topic_of(digest("Odin"))
    PageViewRestriction.objects.create(page=topic, restriction_type=PageViewRestriction.LOGIN)
    assert visible(topic) == set()
    assert visible(digest("Odin")) == set()


def test_live_digests_below_an_unpublished_topic_never_show(visible):
    odin = digest("Odin")
    topic = topic_of(odin)
    topic.unpublish()  # the page alone: its digests stay live
    odin.refresh_from_db()
    assert odin.live
    assert visible(topic) == set()
    assert visible(odin) == set()


def test_an_unpublished_translation_never_shows_but_its_source_does(visible, api_items):
    english = digest("Odin")
    chinese = translation(english, "zh-hant")
    chinese.unpublish()
    assert visible(chinese) == set()
    assert "detail" in visible(english)
    assert api_items(translation_of=english.pk) == []


def test_an_untranslated_placeholder_never_shows(visible):
    english = digest("Odin")
    chinese_topic = translation(topic_of(english), "zh-hant")
    new_page = DigestPageFactory(
        parent=topic_of(english),
        title="Only in English so far",
        short_name="Solo",
        reading_minutes=4,
        summary="New.",
        revision=PUBLISHED,
    )
    placeholder = new_page.create_alias(
        parent=chinese_topic, update_locale=Locale.objects.get(language_code="zh-hant")
    )
    assert placeholder.live
    assert "detail" in visible(new_page)
    # The placeholder repeats the English title, which stays visible on the English page.
    assert visible(placeholder, by_title=False) == set()


def test_an_alias_in_its_own_language_shows(visible):
    """Only placeholders (aliases of a page in another language) are hidden, not every alias."""
    english = digest("Odin")
    other_topic = topic_of(digest("Odin")).get_siblings(inclusive=False).live().first()
    alias = english.create_alias(parent=other_topic, update_slug="odin-again")
    assert alias.live and alias.locale_id == english.locale_id
    assert "detail" in visible(alias, by_title=False)


@pytest.mark.parametrize("hide", ["private", "private topic"])
def test_an_alias_shows_only_while_the_page_it_copies_does(visible, hide):
    """An alias repeats its page's content, kept in step by Wagtail: when that page (or its
    topic) is made private, an alias of it elsewhere must not keep showing the content.
    (Unpublishing the page unpublishes its aliases: Wagtail's own rule.)"""
    english = digest("Odin")
    other_topic = topic_of(english).get_siblings(inclusive=False).live().first()
    alias = english.create_alias(parent=other_topic, update_slug="odin-again")
    if hide == "private":
        PageViewRestriction.objects.create(
            page=english, restriction_type=PageViewRestriction.PASSWORD, password="x"
        )
    else:
        PageViewRestriction.objects.create(
            page=topic_of(english), restriction_type=PageViewRestriction.LOGIN
        )
    assert visible(english) == set()
    assert visible(alias, by_title=False) == set()


@pytest.mark.parametrize("fields", ["title", "*"])
@pytest.mark.parametrize("page_type", [DIGEST_TYPE, TOPIC_TYPE])
@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_a_typed_listing_counts_what_it_lists(api_get, page_type, language, fields):
    """The count must agree with the pages listed, whatever is hidden around them."""
    hide_one_of_each_kind()
    body = api_get(PAGES_URL, type=page_type, locale=language, limit=100, fields=fields).json()
    assert body["meta"]["total_count"] == len(body["items"]) > 0
    searched = api_get(PAGES_URL, type=page_type, locale=language, search="a", limit=100).json()
    assert searched["meta"]["total_count"] == len(searched["items"])


def test_basic_authentication_buys_nothing_in_the_public_api(client, django_user_model):
    """The public API takes no credentials in requests: a user name and password sent as Basic
    authentication neither unlock a login-restricted page nor get checked at all (no
    password guessing past the login lockout); a signed-in reader's session still does."""
    page = digest("Odin")
    PageViewRestriction.objects.create(page=page, restriction_type=PageViewRestriction.LOGIN)
    reader = django_user_model.objects.create_user("reader", password="reader-password")
    basic = "Basic " + base64.b64encode(b"reader:reader-password").decode()
    wrong = "Basic " + base64.b64encode(b"reader:wrong").decode()

    with_basic = client.get(f"{PAGES_URL}{page.pk}/", HTTP_AUTHORIZATION=basic)
    with_wrong = client.get(f"{PAGES_URL}{page.pk}/", HTTP_AUTHORIZATION=wrong)
    client.force_login(reader)
    signed_in = client.get(f"{PAGES_URL}{page.pk}/")

    assert with_basic.status_code == 404
    assert with_wrong.status_code == 404  # not a 401/403 that confirms a guess
    assert signed_in.status_code == 200 and signed_in.json()["id"] == page.pk
