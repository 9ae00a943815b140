"""Every field of digests and topics in the pages API, in list and detail views, both languages."""

import json
from types import SimpleNamespace

import pytest
from django.utils.translation import override as translation_override
from wagtail.api.v2.serializers import PageSerializer, get_serializer_class
from wagtail.models import Page

from cms.papers.models import Venue
from tests.support.content import DIGEST_TYPE, PAGES_URL, TOPIC_TYPE, digest, topic_of, translation
from tests.support.paper_examples import expected_paper, fill_in_odin

pytestmark = pytest.mark.django_db

PAPER_KEYS = {
    "id",
    "title",
    "doi",
    "venue",
    "year",
    "track",
    "authors",
    "affiliations",
    "ids",
    "links",
    "abstract",
    "provenance",
    "retracted",
    "updates",
    "preprint",
    "version_of_record",
}


@pytest.fixture
def odin():
    """Odin's paper with every optional piece of metadata filled in."""
    return fill_in_odin()


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_digest_list_and_detail_carry_every_field(api_get, api_items, odin, language):
    page = odin if language == "en" else translation(odin, language)
    topic = topic_of(page)
    assert odin.paper.venue == "SIGCOMM", "fixture assumption"
    listed = {
        item["id"]: item
        for item in api_items(type=DIGEST_TYPE, locale=language, fields="*", limit=100)
    }
    detail = api_get(f"{PAGES_URL}{page.pk}/").json()

    for item in (listed[page.pk], detail):
        assert item["title"] == page.title
        assert item["short_name"] == "Odin"
        assert item["reading_minutes"] == page.reading_minutes
        assert item["summary"] == page.summary
        assert item["body"] == []
        assert item["topic"] == {"id": topic.pk, "title": topic.title, "slug": topic.slug}
        assert item["paper"] == expected_paper(odin.paper_id, language)
        assert set(item["paper"]) == PAPER_KEYS
        assert item["meta"]["type"] == DIGEST_TYPE
        assert item["meta"]["locale"] == language
    assert detail["meta"]["parent"]["id"] == topic.pk


def test_body_blocks_are_serialised(api_get):
    page = digest("Odin")
    page.body = [
        ("heading", {"text": "Why all-to-all hurts", "level": "h2"}),
        ("paragraph", "<p>Incast everywhere.</p>"),
    ]
    page.save_revision().publish()
    body = api_get(f"{PAGES_URL}{page.pk}/").json()["body"]
    assert [block["type"] for block in body] == ["heading", "paragraph"]
    assert body[0]["value"] == {"text": "Why all-to-all hurts", "level": "h2"}
    assert "Incast everywhere." in body[1]["value"]


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_topic_carries_intro_finish_first_and_digests_in_order(api_get, api_items, language):
    english_topic = topic_of(digest("Odin"))
    topic = english_topic if language == "en" else translation(english_topic, language)
    topic.intro = "How congestion control copes with AI traffic."
    topic.finish_first = "Finish Odin first: the others build on it."
    topic.finish_first_url = "https://example.org/odin"
    topic.save_revision().publish()
    children = [child.specific for child in topic.get_children().live().order_by("path")]
    assert len(children) > 1

    listed = {
        item["id"]: item
        for item in api_items(type=TOPIC_TYPE, locale=language, fields="*", limit=100)
    }
    detail = api_get(f"{PAGES_URL}{topic.pk}/").json()
    for item in (listed[topic.pk], detail):
        assert item["intro"] == topic.intro
        assert item["finish_first"] == topic.finish_first
        assert item["finish_first_url"] == "https://example.org/odin"
        assert item["commentary"] == []
        assert item["digests"] == [
            {
                "id": child.pk,
                "title": child.title,
                "slug": child.slug,
                "short_name": child.short_name,
                "reading_minutes": child.reading_minutes,
            }
            for child in children
        ]


def test_all_digests_in_both_languages_with_paper_and_topic(api_items):
    for language in ("en", "zh-hant"):
        items = api_items(type=DIGEST_TYPE, locale=language, fields="*", limit=100)
        assert len(items) == 53
        assert all(item["paper"]["title"] and item["topic"]["id"] for item in items)
        assert {item["meta"]["locale"] for item in items} == {language}


def test_paper_data_is_the_same_in_both_languages(api_items, odin):
    by_language = {
        language: {
            item["short_name"]: item["paper"]
            for item in api_items(
                type=DIGEST_TYPE, locale=language, fields="short_name,paper", limit=100
            )
        }
        for language in ("en", "zh-hant")
    }
    for papers in by_language.values():  # the venue is named in the page's language
        for paper in papers.values():
            paper["venue"].pop("name")
    assert by_language["en"] == by_language["zh-hant"]
    expected = expected_paper(odin.paper_id)
    expected["venue"].pop("name")
    assert by_language["zh-hant"]["Odin"] == expected


@pytest.mark.parametrize("accept_language", ["en", "zh-hant", None])
def test_a_pages_venue_is_named_in_the_pages_language(client, odin, accept_language):
    """Not in the request's: a browser reading in Chinese got Chinese venue names inside
    English pages, and a front end that sends no Accept-Language English ones inside Chinese
    pages."""
    with translation_override("zh-hant"):
        chinese = str(Venue.SIGCOMM.label)
    assert chinese != "ACM SIGCOMM Conference"  # the catalog translates it
    names = {"en": "ACM SIGCOMM Conference", "zh-hant": chinese}
    headers = {"HTTP_ACCEPT_LANGUAGE": accept_language} if accept_language else {}
    zh_page = translation(odin, "zh-hant")
    listing = client.get(
        PAGES_URL, {"type": DIGEST_TYPE, "fields": "paper(venue)", "limit": 100}, **headers
    ).json()["items"]
    shown = {item["id"]: item["paper"]["venue"]["name"] for item in listing}
    assert shown[odin.pk] == names["en"]
    assert shown[zh_page.pk] == names["zh-hant"]
    for page, language in ((odin, "en"), (zh_page, "zh-hant")):
        detail = client.get(f"{PAGES_URL}{page.pk}/", **headers).json()
        assert detail["paper"]["venue"]["name"] == names[language]
        paper = client.get(
            f"/api/v2/papers/{odin.paper_id}/", {"locale": language}, **headers
        ).json()
        assert paper["venue"]["name"] == names[language]


def test_translation_of_links_the_two_languages(api_items):
    english = digest("Odin")
    chinese = translation(english, "zh-hant")
    assert [item["id"] for item in api_items(translation_of=english.pk)] == [chinese.pk]
    found = api_items(translation_of=chinese.pk, locale="en", type=DIGEST_TYPE)
    assert [item["id"] for item in found] == [english.pk]


def test_every_zh_digest_links_to_its_english_page(api_items):
    chinese = api_items(type=DIGEST_TYPE, locale="zh-hant", fields="short_name", limit=100)
    english = {
        item["short_name"]: item["id"]
        for item in api_items(type=DIGEST_TYPE, locale="en", fields="short_name", limit=100)
    }
    assert len(chinese) == len(english) == 53
    for item in chinese:
        found = api_items(translation_of=item["id"], locale="en")
        assert [page["id"] for page in found] == [english[item["short_name"]]]


def test_listing_without_type_gives_stock_page_fields(api_items):
    items = api_items(locale="zh-hant", limit=100)
    types = {item["meta"]["type"] for item in items}
    assert types == {"digests.DigestIndexPage", "digests.TopicPage", DIGEST_TYPE}
    assert set(items[0]) == {"id", "meta", "title"}
    assert len(items) == 1 + 11 + 53


def test_meta_parent_names_only_a_public_parent(api_get):
    page = digest("Odin")
    index = topic_of(page).get_parent()
    assert api_get(f"{PAGES_URL}{topic_of(page).pk}/").json()["meta"]["parent"]["id"] == index.pk
    # The site root's parent is Wagtail's tree root, which is no public page.
    assert api_get(f"{PAGES_URL}{index.pk}/").json()["meta"]["parent"] is None


def wagtails(response, page, fields, meta_fields) -> dict:
    """`page` as Wagtail's own serializer gives `fields` in the request of `response`, as JSON
    would carry it."""
    request = response.wsgi_request
    context = {"request": request, "router": request.wagtailapi_router}
    context["view"] = SimpleNamespace(seen_types={})
    serializer = get_serializer_class(type(page), fields, meta_fields, base=PageSerializer)
    return json.loads(json.dumps(serializer(context=context).to_representation(page)))


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_meta_parent_is_wagtails_own_representation(api_get, language):
    """Written out by the pages API (cms.api.serializers), the same as Wagtail's nested
    serializer gives for the same parent."""
    page = digest("Odin", language)
    response = api_get(f"{PAGES_URL}{page.pk}/")
    parent = wagtails(
        response,
        Page.objects.get(pk=topic_of(page).pk),
        ["id", "type", "detail_url", "html_url", "title"],
        ["type", "detail_url", "html_url"],
    )
    assert response.json()["meta"]["parent"] == parent
    assert parent["meta"]["type"] == TOPIC_TYPE and parent["meta"]["html_url"]


# The page fields cms.api.serializers.PageSerializer declares; all but the first two are "meta".
DECLARED = (
    "id",
    "title",
    "slug",
    "show_in_menus",
    "seo_title",
    "search_description",
    "first_published_at",
)


def flattened(item: dict) -> dict:
    return {name: item.get(name, item.get("meta", {}).get(name)) for name in DECLARED}


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_declared_page_fields_are_what_wagtail_builds(api_get, language):
    """Declared (cms.api.serializers), the page fields give what DRF builds from the model."""
    page = digest("Odin", language)
    response = api_get(f"{PAGES_URL}{page.pk}/")
    built = wagtails(response, page, DECLARED, DECLARED[2:])
    assert flattened(response.json()) == flattened(built)
    assert built["meta"]["first_published_at"] and built["title"] == page.title


@pytest.mark.parametrize(
    ("selection", "keys"),
    [
        ("paper", PAPER_KEYS),
        ("paper(title,year)", {"id", "title", "year"}),
        ("paper(*)", PAPER_KEYS),
        ("paper(*,-authors,-provenance)", PAPER_KEYS - {"authors", "provenance"}),
        ("paper(_,venue)", {"venue"}),
        ("paper(-id)", set()),
    ],
)
def test_nested_fields_pick_the_papers_keys(api_get, odin, selection, keys):
    """`fields=paper(...)` follows Wagtail's rules for nested fields, in details and lists."""
    detail = api_get(f"{PAGES_URL}{odin.pk}/", fields=f"_,{selection}").json()
    expected = expected_paper(odin.paper_id)
    assert detail["paper"] == {name: expected[name] for name in expected if name in keys}
    listing = api_get(PAGES_URL, type=DIGEST_TYPE, fields=f"_,{selection}", limit=3).json()
    assert all(set(item["paper"]) == keys for item in listing["items"])
