"""Nothing unpublished, private or internal ever reaches the public API.

Every API response (listings, details, `find`, `fields=*`, both locales, pages and papers) is
collected and searched for the hidden pages' ids and markers and for internal field names.
"""

import json
from collections.abc import Iterator

import pytest
from wagtail.models import Locale, Page, PageViewRestriction

from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper
from tests.support.factories import DRAFT, DigestPageFactory

pytestmark = pytest.mark.django_db

DRAFT_MARKER = "DRAFT-ONLY-7f3a"
INTERNAL_FIELDS = {
    "search_text",
    "locked_fields",
    "owner",
    "locked",
    "locked_by",
    "locked_at",
    "latest_revision",
    "live_revision",
    "latest_revision_created_at",
    "draft_title",
    "has_unpublished_changes",
    "go_live_at",
    "expire_at",
    "expired",
    "url_path",
    "path",
    "depth",
    "numchild",
    "content",
    "password",
    "translation_key",
}


@pytest.fixture
def hidden():
    """A draft page, a draft edit of a live page, a private topic, an unpublished translation."""
    en = Locale.objects.get(language_code="en")
    zh = Locale.objects.get(language_code="zh-hant")
    topics = list(TopicPage.objects.filter(locale=en).live().order_by("path"))

    template = DigestPage.objects.filter(locale=en).live().order_by("path").first()
    draft = DigestPageFactory(
        parent=topics[0],
        title=f"Never published {DRAFT_MARKER}",
        slug="never-published",
        short_name=DRAFT_MARKER,
        reading_minutes=3,
        summary=DRAFT_MARKER,
        paper=template.paper,
        live=False,
        revision=DRAFT,
    )

    edited = DigestPage.objects.filter(locale=en).live().order_by("path")[1]
    edited.summary = f"Unpublished edit {DRAFT_MARKER}"
    edited.title = f"Unpublished title {DRAFT_MARKER}"
    edited.save_revision()  # a draft revision only; the live row keeps its old text

    private_topic = topics[-1]
    PageViewRestriction.objects.create(
        page=private_topic, restriction_type=PageViewRestriction.PASSWORD, password="hunter2"
    )
    private_pages = list(Page.objects.descendant_of(private_topic, inclusive=True))

    english_source = DigestPage.objects.filter(locale=en).live().order_by("path")[2]
    unpublished_translation = english_source.get_translation(zh)
    unpublished_translation.unpublish()

    hidden_pages = [draft, *private_pages, unpublished_translation]
    return {
        "ids": {page.pk for page in hidden_pages},
        "pages": hidden_pages,
        "edited": edited,
        "english_source": english_source,
    }


def api_responses(client, hidden) -> Iterator[tuple[str, object]]:
    """Every API URL a client could try, with the decoded response body."""
    urls = []
    for locale in ("en", "zh-hant"):
        for query in ("", "&type=digests.DigestPage", "&type=digests.TopicPage"):
            urls.append(f"/api/v2/pages/?locale={locale}&fields=*&limit=100{query}")
            urls.append(f"/api/v2/pages/?locale={locale}&fields=*&limit=100&offset=20{query}")
        urls.append(f"/api/v2/pages/?locale={locale}&search=published&fields=*")
        urls.append(
            f"/api/v2/pages/?locale={locale}&translation_of={hidden['english_source'].pk}&fields=*"
        )
    urls.append("/api/v2/pages/?fields=*&limit=100&order=-id")
    urls.append("/api/v2/papers/?fields=*&limit=100")
    for page in Page.objects.live().public().filter(depth__gt=1):
        urls.append(f"/api/v2/pages/{page.pk}/?fields=*")
    for paper in Paper.objects.all()[:5]:
        urls.append(f"/api/v2/papers/{paper.pk}/?fields=*")
    for page in hidden["pages"]:
        urls.append(f"/api/v2/pages/{page.pk}/")
        urls.append(f"/api/v2/pages/{page.pk}/?fields=*")
        urls.append(f"/api/v2/pages/find/?html_path={page.get_url_parts()[2]}")
    for url in urls:
        response = client.get(url, follow=True)
        assert response.status_code in (200, 400, 404), (url, response.status_code)
        yield url, response.json()


def keys_in(data) -> Iterator[str]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield key
            yield from keys_in(value)
    elif isinstance(data, list):
        for item in data:
            yield from keys_in(item)


def page_ids_in(data) -> Iterator[int]:
    """Ids of pages in listings, details and nested page references."""
    if isinstance(data, dict):
        meta = data.get("meta")
        if isinstance(data.get("id"), int) and (
            isinstance(meta, dict) and "type" in meta and meta["type"] != "papers.Paper"
        ):
            yield data["id"]
        for key, value in data.items():
            if key in ("digests", "topic", "parent") and value:
                for item in value if isinstance(value, list) else [value]:
                    if isinstance(item, dict) and "id" in item:
                        yield item["id"]
            yield from page_ids_in(value)
    elif isinstance(data, list):
        for item in data:
            yield from page_ids_in(item)


def test_hidden_pages_never_appear(client, hidden):
    responses = list(api_responses(client, hidden))

    for url, body in responses:
        assert not set(page_ids_in(body)) & hidden["ids"], url
        assert DRAFT_MARKER not in json.dumps(body, ensure_ascii=False), url
    for page in hidden["pages"]:
        assert client.get(f"/api/v2/pages/{page.pk}/").status_code == 404


def test_the_live_version_of_an_edited_page_is_served(client, hidden):
    body = client.get(f"/api/v2/pages/{hidden['edited'].pk}/").json()

    assert DRAFT_MARKER not in body["summary"]
    assert DRAFT_MARKER not in body["title"]


def test_no_internal_field_in_any_response(client, hidden):
    for url, body in api_responses(client, hidden):
        assert not set(keys_in(body)) & INTERNAL_FIELDS, url


@pytest.mark.parametrize("endpoint", ["pages", "papers"])
@pytest.mark.parametrize("field", sorted(INTERNAL_FIELDS))
def test_asking_for_an_internal_field_is_refused(client, endpoint, field):
    response = client.get(f"/api/v2/{endpoint}/", {"fields": field})

    assert response.status_code == 400
    assert field in response.json()["message"]
