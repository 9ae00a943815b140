"""The sitemap: every public reader page in both languages, each naming the other (hreflang),
and robots.txt pointing at it."""

import xml.etree.ElementTree as ET

import pytest
from wagtail.models import Locale, PageViewRestriction

from cms.digests.models import DigestIndexPage, DigestPage, TopicPage
from tests.support.content import digest, topic_of, translation
from tests.support.factories import DRAFT, PUBLISHED, DigestPageFactory

pytestmark = pytest.mark.django_db

NS = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9", "x": "http://www.w3.org/1999/xhtml"}


def read_sitemap(client) -> dict[str, dict[str, str]]:
    """{location: {hreflang: href}} from /sitemap.xml."""
    response = client.get("/sitemap.xml")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/xml")
    root = ET.fromstring(response.content)
    urls = {}
    for url in root.findall("s:url", NS):
        location = url.findtext("s:loc", namespaces=NS)
        assert location not in urls  # each address once
        urls[location] = {
            link.get("hreflang"): link.get("href")
            for link in url.findall("x:link", NS)
            if link.get("rel") == "alternate"
        }
    return urls


def test_every_public_page_in_both_languages_names_the_other(client):
    urls = read_sitemap(client)
    reader_pages = [
        *DigestIndexPage.objects.live(),
        *TopicPage.objects.live(),
        *DigestPage.objects.live(),
    ]
    assert set(urls) == {page.full_url for page in reader_pages}
    for language in ("en", "zh-hant"):
        odin = digest("Odin", language)
        assert urls[odin.full_url] == {
            "en": digest("Odin").full_url,
            "zh-hant": digest("Odin", "zh-hant").full_url,
            "x-default": digest("Odin").full_url,
        }
    assert "/zh-hant/" in digest("Odin", "zh-hant").full_url
    home = DigestIndexPage.objects.get(locale__language_code="en")
    assert urls[home.full_url]["zh-hant"] == translation(home, "zh-hant").full_url


def test_hidden_pages_are_neither_listed_nor_alternates(client):
    odin = digest("Odin")
    odin_zh = translation(odin, "zh-hant")
    odin_zh.unpublish()  # an unpublished translation
    topics = list(topic_of(odin).get_siblings().live().specific())
    private = topics[1].get_children().specific()[0]
    PageViewRestriction.objects.create(page=private, restriction_type=PageViewRestriction.LOGIN)
    draft = DigestPageFactory(
        parent=topics[2],
        title="Draft",
        short_name="Draft",
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
    urls = read_sitemap(client)
    hrefs = {href for alternates in urls.values() for href in alternates.values()}
    # The private page's translation takes its privacy (cms.translation.workflow.tree).
    private_zh = translation(private, "zh-hant")
    for hidden in (odin_zh, private, private_zh, placeholder):
        assert hidden.full_url not in urls and hidden.full_url not in hrefs
    assert draft.full_url not in urls
    # Pages left with one public language list no alternates.
    assert urls[odin.full_url] == {}
    assert urls[solo.full_url] == {}


def test_robots_txt_names_the_sitemap(client):
    response = client.get("/robots.txt")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    lines = response.content.decode().splitlines()
    home = DigestIndexPage.objects.get(locale__language_code="en")
    # On the host the sitemap's pages are on (the sitemaps protocol wants one host).
    assert f"Sitemap: {home.full_url}sitemap.xml" in lines
    assert "Disallow: /admin/" in lines and "Disallow: /preview/" in lines
    assert not any(line.startswith("Disallow: /api") for line in lines)  # the reader reads it


def test_a_sitemap_that_lists_a_private_page_is_private(client, django_user_model):
    """A signed-in reader passes a login restriction and their sitemap lists the private page:
    it goes out `private`, so no shared cache hands that address on to everyone."""
    private = digest("Odin")
    PageViewRestriction.objects.create(page=private, restriction_type=PageViewRestriction.LOGIN)
    anonymous = client.get("/sitemap.xml")
    assert "public" in anonymous["Cache-Control"]
    client.force_login(django_user_model.objects.create_user("reader", password="x"))
    signed_in = client.get("/sitemap.xml")
    assert private.full_url in read_sitemap(client)
    assert "private" in signed_in["Cache-Control"] and "public" not in signed_in["Cache-Control"]
