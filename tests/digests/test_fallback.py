"""`fallback=en`: a Chinese listing or find/ fills the pages Chinese lacks with their English
pages, marked; without the parameter nothing changes, and the sitemap, hreflang and feeds keep
naming real translations only."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlsplit

import pytest

from cms.digests.models import DigestPage
from tests.support.content import DIGEST_TYPE, PAGES_URL, digest, topic_of, translation
from tests.support.factories import PUBLISHED, DigestPageFactory

pytestmark = pytest.mark.django_db

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


@pytest.fixture
def untranslated() -> DigestPage:
    """An English digest published before its translation, beside Odin."""
    return DigestPageFactory(
        parent=topic_of(digest("Odin")),
        title="Only in English so far",
        slug="only-in-english",
        revision=PUBLISHED,
    )


def listing(client, **params) -> tuple[dict, object]:
    response = client.get(PAGES_URL, {"type": DIGEST_TYPE, "limit": 100, **params})
    assert response.status_code == 200, response.content
    return response.json(), response


def test_a_fallback_lists_the_untranslated_digest_marked_and_nothing_else_marked(
    client, untranslated
):
    plain, _response = listing(client, locale="zh-hant")
    filled, response = listing(client, locale="zh-hant", fallback="en")

    assert filled["meta"]["total_count"] == plain["meta"]["total_count"] + 1
    extra = [item for item in filled["items"] if item["id"] == untranslated.pk]
    assert len(extra) == 1
    assert extra[0]["meta"]["locale"] == "en" and extra[0]["meta"]["fallback"] is True
    assert extra[0]["title"] == "Only in English so far"
    others = [item for item in filled["items"] if item["id"] != untranslated.pk]
    assert {(item["meta"]["locale"], item["meta"]["fallback"]) for item in others} == {
        ("zh-hant", False)
    }
    assert response["Content-Language"] == "en, zh-hant"
    # The Chinese pages first, in tree order as without the parameter, then the fallbacks.
    assert [item["id"] for item in others] == [item["id"] for item in plain["items"]]
    assert filled["items"][-1]["id"] == untranslated.pk


def test_without_the_parameter_nothing_changes(client, untranslated):
    plain, response = listing(client, locale="zh-hant", fields="*")
    filled, _response = listing(client, locale="zh-hant", fields="*", fallback="en")
    assert untranslated.pk not in {item["id"] for item in plain["items"]}
    assert all("fallback" not in item["meta"] for item in plain["items"])
    assert response["Content-Language"] == "zh-hant"
    # The same items, byte for byte, but for the two marks the fallback adds.
    for item in filled["items"]:
        del item["meta"]["fallback"]
    kept = [item for item in filled["items"] if item["id"] != untranslated.pk]
    assert kept == plain["items"]


def test_a_translated_page_is_never_a_fallback(client, untranslated):
    """English asked for with an English fallback: every page is English's own."""
    english, _response = listing(client, locale="en", fallback="en")
    plain, _response = listing(client, locale="en")
    assert [item["id"] for item in english["items"]] == [item["id"] for item in plain["items"]]
    assert {item["meta"]["fallback"] for item in english["items"]} == {False}


def test_an_unpublished_translation_is_filled_in_by_its_english_page(client):
    page = digest("Odin")
    translation(page, "zh-hant").unpublish()
    filled, _response = listing(client, locale="zh-hant", fallback="en")
    marked = {item["id"]: item["meta"]["fallback"] for item in filled["items"]}
    assert marked[page.pk] is True
    assert translation(page, "zh-hant").pk not in marked


def test_child_of_a_chinese_topic_lists_its_english_topic_s_untranslated_digests(
    client, untranslated
):
    chinese_topic = translation(topic_of(untranslated), "zh-hant")
    plain, _response = listing(client, locale="zh-hant", child_of=chinese_topic.pk)
    filled, _response = listing(client, locale="zh-hant", child_of=chinese_topic.pk, fallback="en")
    assert [item["id"] for item in filled["items"]] == [
        *(item["id"] for item in plain["items"]),
        untranslated.pk,
    ]


def test_an_order_is_kept_across_both_languages(client, untranslated):
    filled, _response = listing(
        client, locale="zh-hant", fallback="en", order="-first_published_at"
    )
    assert filled["items"][0]["id"] == untranslated.pk  # the newest


def test_search_finds_the_fallback_too(client, untranslated):
    filled, _response = listing(client, locale="zh-hant", fallback="en", search="English so far")
    assert [item["id"] for item in filled["items"]] == [untranslated.pk]


def test_find_by_chinese_address_redirects_to_the_english_page(client, untranslated):
    chinese_topic = translation(topic_of(untranslated), "zh-hant")
    address = f"/zh-hant/{chinese_topic.slug}/{untranslated.slug}/"
    assert client.get(f"{PAGES_URL}find/", {"html_path": address}).status_code == 404

    response = client.get(f"{PAGES_URL}find/", {"html_path": address, "fallback": "en"})
    assert response.status_code == 302
    target = urlsplit(response["Location"])
    assert target.path == f"{PAGES_URL}{untranslated.pk}/"
    assert parse_qs(target.query) == {"fallback": ["en"], "locale": ["zh-hant"]}
    detail = client.get(response["Location"]).json()
    assert detail["id"] == untranslated.pk
    assert detail["meta"]["locale"] == "en" and detail["meta"]["fallback"] is True

    # A page Chinese has is found as itself, marked as no fallback.
    odin = translation(digest("Odin"), "zh-hant")
    found = client.get(
        f"{PAGES_URL}find/", {"html_path": odin.get_url(), "fallback": "en"}, follow=True
    )
    assert found.json()["id"] == odin.pk and found.json()["meta"]["fallback"] is False


def test_find_by_id_in_a_locale_falls_back_too(client, untranslated):
    params = {"id": untranslated.pk, "locale": "zh-hant"}
    assert client.get(f"{PAGES_URL}find/", params).status_code == 404
    response = client.get(f"{PAGES_URL}find/", {**params, "fallback": "en"}, follow=True)
    assert response.json()["id"] == untranslated.pk
    assert response.json()["meta"]["fallback"] is True


@pytest.mark.parametrize(
    "params, message",
    [
        ({"locale": "zh-hant", "fallback": "zh-hant"}, "fallback must be en"),
        ({"fallback": "en"}, "fallback needs locale"),
        ({"locale": "zh-hant", "fallback": "fr"}, "fallback must be en"),
    ],
)
def test_a_fallback_is_english_and_beside_a_locale(client, params, message):
    response = client.get(PAGES_URL, params)
    assert response.status_code == 400
    assert response.json() == {"message": message}


def test_a_detail_asked_with_a_fallback_needs_a_locale(client, untranslated):
    response = client.get(f"{PAGES_URL}{untranslated.pk}/", {"fallback": "en"})
    assert response.status_code == 400


def test_the_cost_does_not_grow_with_the_fallbacks(client, untranslated, django_assert_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            listing(client, locale="zh-hant", fallback="en", fields="*")
        return len(captured)

    one = queries()
    for number in range(3):
        DigestPageFactory(parent=topic_of(untranslated), title=f"More {number}", revision=PUBLISHED)
    assert queries() == one


def test_the_sitemap_and_the_chinese_feed_name_only_real_translations(client, untranslated):
    root = ET.fromstring(client.get("/sitemap.xml").content)
    for url in root.findall("s:url", NS):
        if url.findtext("s:loc", namespaces=NS) == untranslated.full_url:
            languages = {link.get("hreflang") for link in url.findall("x:link", NS)}
            assert "zh-hant" not in languages
            break
    else:
        raise AssertionError("the untranslated digest is not in the sitemap")
    assert untranslated.title not in client.get("/zh-hant/feed.atom").content.decode()
    assert untranslated.title in client.get("/feed.atom").content.decode()


def test_the_reader_serves_the_chinese_address_naming_the_english_one(client, untranslated):
    chinese_topic = translation(topic_of(untranslated), "zh-hant")
    response = client.get(f"/zh-hant/{chinese_topic.slug}/{untranslated.slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert f'<link rel="canonical" href="{untranslated.full_url}">' in html
    assert '<html lang="zh-Hant">' in html
    # A page no language shows is still not found.
    untranslated.unpublish()
    assert client.get(f"/zh-hant/{chinese_topic.slug}/{untranslated.slug}/").status_code == 404
    assert client.get(f"/zh-hant/{chinese_topic.slug}/no-such-digest/").status_code == 404


def test_a_translated_topic_slug_still_leads_to_the_english_digest(client, untranslated):
    chinese_topic = translation(topic_of(untranslated), "zh-hant")
    chinese_topic.slug = "fu-wu-qi-nei-bu"
    chinese_topic.save_revision().publish()
    address = f"/zh-hant/fu-wu-qi-nei-bu/{untranslated.slug}/"
    assert client.get(address).status_code == 200
    found = client.get(
        f"{PAGES_URL}find/", {"html_path": address, "fallback": "en"}, follow=True
    ).json()
    assert found["id"] == untranslated.pk and found["meta"]["fallback"] is True


def test_the_answers_are_as_the_api_description_says(conforms, untranslated):
    conforms(PAGES_URL, type=DIGEST_TYPE, locale="zh-hant", fallback="en", fields="*")
    conforms(PAGES_URL, locale="zh-hant", fallback="en")
    conforms(f"{PAGES_URL}{untranslated.pk}/", locale="zh-hant", fallback="en")
    conforms(PAGES_URL, 400, locale="zh-hant", fallback="zh-hant")
