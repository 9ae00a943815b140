"""Stored rich text, whatever wrote it, leaves the database cleaned: safe in the API (and so
in the reader), and readable by the admin's editor, which never answers 500 on it."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext
from wagtail.models import Locale

from cms.digests.models import DigestPage, TopicPage
from cms.digests.rich_text import clean_rich_text

pytestmark = pytest.mark.django_db

HOSTILE = {
    "page link with a word for id": ('<p><a linktype="page" id="abc">see</a></p>', "see"),
    "page link without id": ('<p><a linktype="page">see</a></p>', "see"),
    "open void tag": ("<p><img src=x onerror=alert(1)>after</p>", "after"),
    "misnested tags": ("<p><b><i>both</b></i></p>", "both"),
    "script": ("<p>kept<script>alert(1)</script></p>", "kept"),
    "javascript link": ('<p><a href="javascript:alert(1)">click</a></p>', "click"),
    "event handler": ('<p onclick="alert(1)" style="x">styled</p>', "styled"),
    "iframe": ('<iframe src="https://example.org/"></iframe><p>framed</p>', "framed"),
    "svg script": ("<svg><script>alert(1)</script></svg><p>drawn</p>", "drawn"),
    "unknown link type": ('<p><a linktype="document" id="1">doc</a></p>', "doc"),
}
DANGEROUS = ("<script", "onerror", "onclick", "javascript:", "<iframe", "<svg", "<img", "style=")


def store_body(page, html: str) -> None:
    body = json.dumps([{"type": "paragraph", "value": html, "id": "p1"}])
    DigestPage.objects.filter(pk=page.pk).update(body=body)


@pytest.fixture
def admin_client(client):
    client.force_login(get_user_model().objects.create_superuser("root", "r@example.org", "x"))
    return client


@pytest.mark.parametrize(("html", "text"), HOSTILE.values(), ids=HOSTILE.keys())
def test_the_editor_opens_any_stored_html(admin_client, html, text):
    page = DigestPage.objects.get(slug="fabricperf", locale__language_code="en")
    store_body(page, html)

    response = admin_client.get(f"/admin/pages/{page.pk}/edit/")

    assert response.status_code == 200
    assert text in response.content.decode()


@pytest.mark.parametrize(("html", "text"), HOSTILE.values(), ids=HOSTILE.keys())
@pytest.mark.parametrize("rich_text_format", [None, "html"])
def test_the_api_sends_it_cleaned(client, settings, html, text, rich_text_format):
    settings.API_RESPONSE_CACHE_SECONDS = 0
    page = DigestPage.objects.get(slug="fabricperf", locale__language_code="en")
    store_body(page, html)
    params = {"rich_text_format": rich_text_format} if rich_text_format else {}

    body = client.get(f"/api/v2/pages/{page.pk}/", params).json()["body"]

    value = body[0]["value"]
    assert text in value
    assert not [danger for danger in DANGEROUS if danger in value.lower()]


def test_page_links_survive_and_expand(client, settings):
    settings.API_RESPONSE_CACHE_SECONDS = 0
    page = DigestPage.objects.get(slug="fabricperf", locale__language_code="en")
    topic = TopicPage.objects.filter(locale__language_code="en").first()
    store_body(page, f'<p><a linktype="page" id="{topic.pk}">the topic</a> and <b>bold</b></p>')

    raw = client.get(f"/api/v2/pages/{page.pk}/").json()["body"][0]["value"]
    html = client.get(f"/api/v2/pages/{page.pk}/", {"rich_text_format": "html"}).json()["body"]

    assert raw == f'<p><a linktype="page" id="{topic.pk}">the topic</a> and <b>bold</b></p>'
    assert f'href="{topic.url}"' in html[0]["value"]


@pytest.mark.parametrize("rich_text_format", [None, "html", "markdown"])
def test_a_link_to_a_page_the_api_does_not_show_keeps_its_text_but_not_its_target(
    client, settings, rich_text_format
):
    """An unpublished page's address is not public: the link's text stays, its target goes, in
    a detail and in a listing (checked for all its pages at once)."""
    settings.API_RESPONSE_CACHE_SECONDS = 0
    pages = DigestPage.objects.filter(locale__language_code="en").order_by("path")
    page, hidden, shown = pages[0], pages[1], pages[2]
    hidden.unpublish()
    store_body(
        page,
        f'<p><a linktype="page" id="{hidden.pk}">hidden</a> '
        f'<a id="{shown.pk}" linktype="page">shown</a></p>',
    )
    params = {"rich_text_format": rich_text_format} if rich_text_format else {}

    # More pages, each linking to a page of its own: the listing checks them all at once.
    for other, target in zip(pages[3:6], pages[6:9], strict=True):
        store_body(other, f'<p><a linktype="page" id="{target.pk}">shown</a></p>')
    detail = client.get(f"/api/v2/pages/{page.pk}/", params).json()["body"][0]["value"]

    def listing_queries(limit: int) -> tuple[int, list]:
        query = {"type": "digests.DigestPage", "fields": "body", "limit": limit, **params}
        with CaptureQueriesContext(connection) as queries:
            items = client.get("/api/v2/pages/", query).json()["items"]
        return len(queries), items

    one, _items = listing_queries(1)
    many, listing = listing_queries(20)
    if rich_text_format is None:  # expanding links (html, markdown) is Wagtail's, per value
        assert many == one <= 12

    item = next(item["body"][0]["value"] for item in listing if item["id"] == page.pk)
    for value in (detail, item):
        assert "hidden" in value and "shown" in value
        assert f'id="{hidden.pk}"' not in value and hidden.slug not in value
        assert f'id="{shown.pk}"' in value or shown.slug in value


def test_what_the_editor_writes_is_left_as_it_is():
    """HTML that Draftail writes for every paragraph feature passes through unchanged."""
    from wagtail.admin.rich_text.converters.contentstate import ContentstateConverter

    from cms.digests.blocks import PARAGRAPH_FEATURES

    topic = TopicPage.objects.filter(locale__language_code="en").first()
    converter = ContentstateConverter(PARAGRAPH_FEATURES)
    written = converter.to_database_format(
        converter.from_database_format(
            f"<p><b>b</b> <i>i</i> <code>c</code> x<sup>2</sup> H<sub>2</sub>O "
            f'<a href="https://example.org/a?b=1&amp;c=2">out</a> '
            f'<a linktype="page" id="{topic.pk}">in</a></p>'
            "<ol><li>one</li></ol><ul><li>two</li></ul><p>line<br/>break</p>"
        )
    )

    assert "<b>b</b>" in written and 'linktype="page"' in written
    assert "data-block-key" in written  # Draftail's block ids, kept for comments
    assert clean_rich_text(written) == written.replace("<br/>", "<br>")


@pytest.mark.parametrize(
    ("html", "cleaned"),
    [
        ('<a linktype="page" id="12">x</a>', '<a linktype="page" id="12">x</a>'),
        ('<a linktype="page" id="1e3">x</a>', "<a>x</a>"),
        ('<a id="12">x</a>', "<a>x</a>"),
        ('<a href="https://example.org/?a=1&amp;b=2">x</a>', None),
        ('<a href="mailto:a@example.org">x</a>', None),
        ("<ol><li>one</li></ol><ul><li>two</li></ul>", None),
        ("<p>x<sup>2</sup>H<sub>2</sub>O <code>f()</code><br></p>", None),
        ("<h1>Title</h1><table><tr><td>cell</td></tr></table>", "Titlecell"),
        ("", ""),
    ],
)
def test_the_allow_list(html, cleaned):
    assert clean_rich_text(html) == (html if cleaned is None else cleaned)


@pytest.mark.parametrize("rich_text_format", [None, "html"])
def test_a_translations_links_lead_to_pages_in_its_own_language(client, settings, rich_text_format):
    """wagtail-localize keeps the English page's id in a translation's links: the API points
    them at that page's translation when it shows it, else at the English page, in a detail
    and a listing, whatever language the request asks in."""
    settings.API_RESPONSE_CACHE_SECONDS = 0
    english = DigestPage.objects.filter(locale__language_code="en").order_by("path")
    target, untranslated_target = english[0], english[1]
    chinese_target = target.get_translation(Locale.objects.get(language_code="zh-hant"))
    untranslated_target.get_translation(Locale.objects.get(language_code="zh-hant")).unpublish()
    linking = english[2].get_translation(Locale.objects.get(language_code="zh-hant"))
    store_body(
        linking,
        f'<p><a linktype="page" id="{target.pk}">譯</a> '
        f'<a linktype="page" id="{untranslated_target.pk}">原</a></p>',
    )
    params = {"rich_text_format": rich_text_format} if rich_text_format else {}

    detail = client.get(f"/api/v2/pages/{linking.pk}/", params, HTTP_ACCEPT_LANGUAGE="en")
    listing = client.get(
        "/api/v2/pages/",
        {"type": "digests.DigestPage", "locale": "zh-hant", "fields": "body", **params},
    ).json()["items"]

    item = next(item for item in listing if item["id"] == linking.pk)
    for value in (detail.json()["body"][0]["value"], item["body"][0]["value"]):
        if rich_text_format == "html":
            assert f'href="{chinese_target.url}"' in value and "/zh-hant/" in chinese_target.url
            assert f'href="{untranslated_target.url}"' in value
        else:
            assert f'id="{chinese_target.pk}"' in value and f'id="{target.pk}"' not in value
            assert f'id="{untranslated_target.pk}"' in value


def test_an_english_pages_links_stay_english_when_the_request_asks_in_chinese(client, settings):
    settings.API_RESPONSE_CACHE_SECONDS = 0
    english = DigestPage.objects.filter(locale__language_code="en").order_by("path")
    store_body(english[2], f'<p><a linktype="page" id="{english[0].pk}">see</a></p>')

    value = client.get(
        f"/api/v2/pages/{english[2].pk}/",
        {"rich_text_format": "html"},
        HTTP_ACCEPT_LANGUAGE="zh-hant",
    ).json()["body"][0]["value"]

    assert f'href="{english[0].url}"' in value and "/zh-hant/" not in value
