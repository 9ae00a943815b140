"""HTTP behaviour of the API: ETag and 304, Cache-Control, CORS for configured origins."""

import pytest
from django.test import override_settings

from tests.support.content import DIGEST_TYPE, PAGES_URL, digest

pytestmark = pytest.mark.django_db

FRONT_END = "https://digests.example.org"


@pytest.mark.parametrize(
    "path", [PAGES_URL, "/api/v2/papers/", "/api/v2/images/", "/api/v2/schema/"]
)
def test_responses_carry_an_etag_and_honour_if_none_match(client, path):
    first = client.get(path)
    etag = first["ETag"]
    assert etag.startswith('"')
    again = client.get(path, HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == etag
    assert client.get(path, HTTP_IF_NONE_MATCH='"stale"').status_code == 200


def test_etag_changes_when_the_content_does(client):
    page = digest("Odin")
    url = f"{PAGES_URL}{page.pk}/"
    etag = client.get(url)["ETag"]
    page.summary = "A new summary."
    page.save_revision().publish()
    response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag
    assert response.json()["summary"] == "A new summary."


def test_browsers_revalidate_every_time_and_shared_caches_keep_longer(client, settings):
    settings.API_SHARED_CACHE_SECONDS = 900
    settings.API_STALE_WHILE_REVALIDATE_SECONDS = 30
    for path in (PAGES_URL, f"{PAGES_URL}{digest('Odin').pk}/", "/api/v2/papers/"):
        response = client.get(path)
        assert response["Cache-Control"] == "public, max-age=0, must-revalidate, s-maxage=900"
        assert response["CDN-Cache-Control"] == "public, max-age=900, stale-while-revalidate=30"
        assert "Accept-Language" in response["Vary"]
    assert "public" not in client.get(PAGES_URL, {"limit": "x"}).get("Cache-Control", "")


@override_settings(CORS_ALLOWED_ORIGINS=[FRONT_END])
def test_cors_allows_configured_front_ends_only(client):
    allowed = client.get(PAGES_URL, {"type": DIGEST_TYPE}, HTTP_ORIGIN=FRONT_END)
    assert allowed["Access-Control-Allow-Origin"] == FRONT_END
    other = client.get(PAGES_URL, HTTP_ORIGIN="https://elsewhere.example")
    assert "Access-Control-Allow-Origin" not in other
    preflight = client.options(
        PAGES_URL, HTTP_ORIGIN=FRONT_END, HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET"
    )
    assert preflight.status_code == 200
    assert preflight["Access-Control-Allow-Origin"] == FRONT_END
    assert "GET" in preflight["Access-Control-Allow-Methods"]
    assert "POST" not in preflight["Access-Control-Allow-Methods"]
    admin = client.get("/admin/login/", HTTP_ORIGIN=FRONT_END)
    assert "Access-Control-Allow-Origin" not in admin


@override_settings(CORS_ALLOWED_ORIGINS=[FRONT_END])
def test_a_front_end_on_another_origin_can_revalidate_with_the_etag(client):
    first = client.get(PAGES_URL, HTTP_ORIGIN=FRONT_END)
    exposed = {h.strip().lower() for h in first["Access-Control-Expose-Headers"].split(",")}
    assert {"etag", "x-request-id"} <= exposed  # fetch() may read them
    preflight = client.options(
        PAGES_URL,
        HTTP_ORIGIN=FRONT_END,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="if-none-match",
    )
    assert "if-none-match" in preflight["Access-Control-Allow-Headers"]
    again = client.get(PAGES_URL, HTTP_ORIGIN=FRONT_END, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304


def test_cors_is_off_without_configured_origins(client):
    response = client.get(PAGES_URL, HTTP_ORIGIN=FRONT_END)
    assert "Access-Control-Allow-Origin" not in response


def test_an_id_past_the_column_range_is_a_404(client):
    assert client.get(f"{PAGES_URL}99999999999999999999/").status_code == 404
    assert client.get("/api/v2/papers/99999999999999999999/").status_code == 404


@pytest.mark.parametrize("path", [PAGES_URL, "/api/v2/papers/", "/api/v2/images/"])
def test_responses_are_compact_json_unless_indentation_is_asked_for(client, path):
    digest("Odin")
    compact = client.get(path)
    assert compact["Content-Type"] == "application/json"
    assert b"\n" not in compact.content
    assert b'"meta":{' in compact.content
    indented = client.get(path, HTTP_ACCEPT="application/json; indent=4")
    assert indented.content.startswith(b'{\n    "meta": {')
    assert indented.json() == compact.json()


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
PUBLIC_ENDPOINTS = (PAGES_URL, "/api/v2/papers/", "/api/v2/images/", "/api/v2/documents/")


@pytest.mark.parametrize("path", PUBLIC_ENDPOINTS)
def test_production_answers_json_only(client, path, settings):
    """DRF's browsable API (an HTML page with DRF's forms, which Wagtail adds to every API
    view) is a developer's tool: in production a browser gets the JSON a front end gets."""
    settings.DEBUG = False
    browser = client.get(path, HTTP_ACCEPT=BROWSER_ACCEPT)
    assert browser.status_code == 200
    assert browser["Content-Type"] == "application/json"
    assert "Accept" in browser["Vary"]  # `indent` in Accept still changes the body
    html_only = client.get(path, HTTP_ACCEPT="text/html")
    assert html_only.status_code == 406
    assert "message" in html_only.json()
    asked = client.get(path, {"format": "api"})
    assert asked.status_code == 400
    assert asked.json() == {"message": "format must be one of: json"}


def test_a_page_detail_in_production_is_json_to_a_browser(client, settings):
    settings.DEBUG = False
    response = client.get(f"{PAGES_URL}{digest('Odin').pk}/", HTTP_ACCEPT=BROWSER_ACCEPT)
    assert response["Content-Type"] == "application/json"


def test_the_cached_api_keeps_json_only_in_production(client, settings, cached_api):
    settings.DEBUG = False
    for _ in range(2):  # a miss, then a hit
        response = client.get(PAGES_URL, HTTP_ACCEPT=BROWSER_ACCEPT)
        assert response["Content-Type"] == "application/json"


def test_debug_keeps_the_browsable_api(client, settings):
    settings.DEBUG = True
    response = client.get(PAGES_URL, HTTP_ACCEPT="text/html")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")
    assert client.get(PAGES_URL, {"format": "api"})["Content-Type"].startswith("text/html")


def content_language(client, path: str, browser: str, **params) -> str:
    return client.get(path, params, HTTP_ACCEPT_LANGUAGE=browser)["Content-Language"]


@pytest.mark.parametrize(("language", "browser"), [("zh-hant", "en"), ("en", "zh-TW")])
def test_a_page_detail_names_the_page_s_language(client, language, browser):
    """Content-Language says whom the content is for (RFC 9110, 8.5): a page's fields are in
    its own language whatever the browser asks for, so a zh-hant page is zh-hant."""
    url = f"{PAGES_URL}{digest('Odin', language).pk}/"
    assert content_language(client, url, browser) == language


def test_a_listing_names_the_languages_of_its_pages(client):
    assert content_language(client, PAGES_URL, "en", locale="zh-hant") == "zh-hant"
    assert content_language(client, PAGES_URL, "zh-TW", locale="en") == "en"
    assert content_language(client, PAGES_URL, "en", limit="100") == "en, zh-hant"


def test_an_empty_listing_names_the_locale_asked_for(client):
    assert content_language(client, PAGES_URL, "en", locale="zh-hant", slug="none") == "zh-hant"


def test_papers_name_the_language_of_their_venue_names(client):
    """At /api/v2/papers/ venue names are in `locale`'s language, else the request's."""
    papers = "/api/v2/papers/"
    assert content_language(client, papers, "en", locale="zh-hant") == "zh-hant"
    assert content_language(client, papers, "zh-TW", locale="en") == "en"
    assert content_language(client, papers, "zh-TW") == "zh-hant"


def test_an_error_names_the_language_of_its_message(client):
    assert content_language(client, PAGES_URL, "zh-TW", limit="x", locale="en") == "zh-hant"


def test_a_cached_detail_names_the_page_s_language(client, cached_api):
    url = f"{PAGES_URL}{digest('Odin', 'zh-hant').pk}/"
    for browser in ("en", "en", "zh-TW"):  # a miss, a hit, another language's miss
        assert content_language(client, url, browser) == "zh-hant"


@pytest.mark.parametrize("path", PUBLIC_ENDPOINTS)
def test_options_names_only_the_formats_answered(client, path, settings):
    settings.DEBUG = False
    response = client.options(path)
    assert response.status_code == 200
    assert response.json()["renders"] == ["application/json"]
