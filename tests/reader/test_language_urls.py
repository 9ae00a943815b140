"""Each language has its own public address: English unprefixed, Traditional Chinese /zh-hant/.

The addresses come from Wagtail (`Page.url`, the API's `meta.html_url`) reversing the reader's
`wagtail_serve` route inside `i18n_patterns`; these tests follow them to the reader and check the
language the request is served in, and that nothing outside the reader moved.
"""

import re
from urllib.parse import urlsplit

import pytest
from django.core.cache import cache
from django.templatetags.static import static
from django.urls import reverse
from django.utils import translation

from cms.digests.models import DigestIndexPage, DigestPage, TopicPage

pytestmark = pytest.mark.django_db

HTML_LANG = re.compile(r'<html lang="([^"]+)">')
VIEW_LIVE = re.compile(r'<a href="([^"]+)"[^>]*>(?:(?!</a>).)*View live', re.S)
PAGES = {
    "index": (DigestIndexPage, {}, "/"),
    "topic": (TopicPage, {"slug": "inside-the-server"}, "/inside-the-server/"),
    "digest": (DigestPage, {"slug": "fabricperf"}, "/inside-the-server/fabricperf/"),
}
PREFIX = {"en": "", "zh-hant": "/zh-hant"}
HTML_LANG_OF = {"en": "en", "zh-hant": "zh-Hant"}


@pytest.fixture(autouse=True)
def fresh_api_cache():
    cache.clear()
    yield
    cache.clear()


def page_in(kind: str, language: str):
    model, lookup, _path = PAGES[kind]
    return model.objects.get(locale__language_code=language, **lookup)


def html_url(client, page) -> str:
    response = client.get(f"/api/v2/pages/{page.pk}/")
    assert response.status_code == 200
    return response.json()["meta"]["html_url"]


@pytest.mark.parametrize("kind", PAGES)
def test_each_language_has_its_own_html_url(client, kind):
    english, chinese = page_in(kind, "en"), page_in(kind, "zh-hant")
    path = PAGES[kind][2]

    assert urlsplit(html_url(client, english)).path == path
    assert urlsplit(html_url(client, chinese)).path == f"/zh-hant{path}"
    # Page.url and full_url are where html_url comes from, and "View live" uses them too.
    assert english.url == path and chinese.url == f"/zh-hant{path}"
    assert chinese.full_url == html_url(client, chinese)


@pytest.mark.parametrize("language", ["en", "zh-hant"])
@pytest.mark.parametrize("kind", PAGES)
def test_html_url_opens_the_reader_in_the_pages_language(client, kind, language):
    address = urlsplit(html_url(client, page_in(kind, language))).path

    response = client.get(address, HTTP_ACCEPT_LANGUAGE="zh-TW" if language == "en" else "en")

    assert response.status_code == 200
    assert response.resolver_match.url_name == "wagtail_serve"
    assert response.resolver_match.args == (PAGES[kind][2].lstrip("/"),)
    # The address decides, not the browser's preference (sent here as the other language).
    assert response["Content-Language"] == language
    assert HTML_LANG.search(response.content.decode()).group(1) == HTML_LANG_OF[language]


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_every_listed_page_is_at_its_languages_address(client, language):
    response = client.get("/api/v2/pages/", {"locale": language, "limit": 100})
    items = response.json()["items"]

    assert len(items) == 65
    paths = [urlsplit(item["meta"]["html_url"]).path for item in items]
    assert [path.startswith("/zh-hant/") for path in paths] == [language == "zh-hant"] * 65
    assert len(set(paths)) == 65  # no two pages share an address


def test_the_two_languages_share_no_address(client):
    addresses = {}
    for language in ("en", "zh-hant"):
        items = client.get("/api/v2/pages/", {"locale": language, "limit": 100}).json()["items"]
        addresses[language] = {urlsplit(item["meta"]["html_url"]).path for item in items}

    assert addresses["en"].isdisjoint(addresses["zh-hant"])
    # Slugs are synchronized, so the Chinese addresses are the English ones under /zh-hant/.
    assert {f"/zh-hant{path}" for path in addresses["en"]} == addresses["zh-hant"]


def test_the_admins_view_live_links_open_each_language(admin_client):
    for language in ("en", "zh-hant"):
        digest = page_in("digest", language)
        listing = admin_client.get(f"/admin/pages/{digest.get_parent().pk}/").content.decode()
        view_live = VIEW_LIVE.findall(listing)
        assert f"{PREFIX[language]}/inside-the-server/fabricperf/" in view_live, view_live


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("/inside-the-server/fabricperf/?lang=zh-hant", "/zh-hant/inside-the-server/fabricperf/"),
        ("/inside-the-server/?lang=zh-hant", "/zh-hant/inside-the-server/"),
        ("/?lang=zh-hant", "/zh-hant/"),
        ("/?lang=en", "/"),
        ("/zh-hant/inside-the-server/?lang=en", "/inside-the-server/"),
        (
            "/inside-the-server/?utm_source=mail&lang=zh-hant&x=1",
            "/zh-hant/inside-the-server/?utm_source=mail&x=1",
        ),
    ],
)
def test_old_lang_links_are_sent_to_the_languages_address(client, old, new):
    response = client.get(old)

    assert response.status_code == 302
    assert response["Location"] == new
    followed = client.get(new)
    assert followed.status_code == 200
    assert followed["Content-Language"] == ("zh-hant" if new.startswith("/zh-hant/") else "en")


def test_an_unknown_lang_value_is_left_to_the_shell(client):
    response = client.get("/inside-the-server/?lang=klingon")

    assert response.status_code == 200
    assert 'data-mode="live"' in response.content.decode()


@pytest.mark.parametrize("path", ["/", "/inside-the-server/", "/inside-the-server/fabricperf/"])
def test_both_shells_send_the_same_security_and_cache_headers(client, path):
    english, chinese = client.get(path), client.get(f"/zh-hant{path}")

    assert english.status_code == chinese.status_code == 200
    for header in ("Content-Security-Policy", "Cache-Control", "X-Frame-Options", "Content-Type"):
        assert english[header] == chinese[header], header
    assert english["Cache-Control"] == "public, max-age=300"
    # As before, the unprefixed shell says it may vary; the prefixed one is the same for all.
    assert english["Vary"] == "Accept-Language"
    assert "Accept-Language" not in chinese.get("Vary", "")


def test_the_chinese_shell_is_written_in_chinese(client):
    html = client.get("/zh-hant/inside-the-server/").content.decode()

    assert '<html lang="zh-Hant">' in html
    assert "<title>研究導讀</title>" in html
    assert 'class="site-title" href="/zh-hant/"' in html
    assert "載入中…" in html


@pytest.mark.parametrize(
    "path", ["/zh-hant/a/b/c/", "/zh-hant/api/v2/pages/", "/zh-hant/static/reader/reader.css"]
)
def test_the_prefix_adds_no_other_routes(client, path):
    assert client.get(path).status_code == 404


def test_everything_outside_the_reader_keeps_one_unprefixed_address(client):
    with translation.override("zh-hant"):
        assert reverse("wagtailapi:pages:listing") == "/api/v2/pages/"
        assert reverse("api-schema") == "/api/v2/schema/"
        assert reverse("wagtailadmin_home") == "/admin/"
        assert reverse("reader_preview") == "/preview/"
        assert static("reader/js/main.js") == "/static/reader/js/main.js"
    for path in ("/api/v2/pages/", "/api/v2/schema/", "/preview/", "/healthz", "/readyz"):
        assert client.get(path, HTTP_ACCEPT_LANGUAGE="zh-TW").status_code == 200, path
    assert client.get("/admin/").status_code == 302


def test_the_chinese_shell_names_the_same_static_files(client):
    def assets(path):
        return re.findall(r'(?:href|src)="(/static/[^"]+)"', client.get(path).content.decode())

    assert assets("/zh-hant/") == assets("/") != []


def test_html_path_lookup_understands_the_language_prefix(client):
    for language in ("en", "zh-hant"):
        digest = page_in("digest", language)
        response = client.get("/api/v2/pages/find/", {"html_path": digest.url})
        assert response.status_code == 302, digest.url
        assert urlsplit(response["Location"]).path == f"/api/v2/pages/{digest.pk}/"
    index = page_in("index", "zh-hant")
    response = client.get("/api/v2/pages/find/", {"html_path": "/zh-hant/"})
    assert urlsplit(response["Location"]).path == f"/api/v2/pages/{index.pk}/"
    assert client.get("/api/v2/pages/find/", {"html_path": "/zh-hant/no-such/"}).status_code == 404


def test_html_path_lookup_never_finds_an_unpublished_translation(client):
    chinese = page_in("digest", "zh-hant")
    chinese.unpublish()

    response = client.get(
        "/api/v2/pages/find/", {"html_path": "/zh-hant/inside-the-server/fabricperf/"}
    )

    assert response.status_code == 404
    # The English page is still found at its own address.
    english = client.get("/api/v2/pages/find/", {"html_path": "/inside-the-server/fabricperf/"})
    assert urlsplit(english["Location"]).path == f"/api/v2/pages/{page_in('digest', 'en').pk}/"
