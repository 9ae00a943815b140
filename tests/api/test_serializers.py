"""The API's meta URLs (cms.api.serializers): Wagtail's values, read once per request."""

from unittest import mock

import pytest
from django.core.cache import caches
from django.urls import reverse
from wagtail.models import Page

from tests.support.content import DIGEST_TYPE, PAGES_URL

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("locale", ["en", "zh-hant"])
def test_meta_urls_are_wagtails_own_for_every_page_type(api_items, locale):
    items = api_items(fields="html_url", locale=locale, limit=100)
    pages = {page.pk: page for page in Page.objects.filter(pk__in=[i["id"] for i in items])}
    assert {item["meta"]["type"] for item in items} >= {"digests.DigestPage", "digests.TopicPage"}
    for item in items:
        page = pages[item["id"]].specific
        assert item["meta"]["html_url"] == page.full_url  # Wagtail's per-page lookup
        detail = reverse("wagtailapi:pages:detail", args=(page.pk,))
        assert item["meta"]["detail_url"] == f"http://testserver{detail}"


def test_paper_detail_urls_are_wagtails_own(api_items):
    items = api_items("/api/v2/papers/", limit=20)
    assert items
    for item in items:
        detail = reverse("wagtailapi:papers:detail", args=(item["id"],))
        assert item["meta"]["detail_url"] == f"http://testserver{detail}"


def cache_reads(api_get, **params) -> int:
    api_get(**params)  # warm what is read once per process or content version
    cache = caches["default"]
    with mock.patch.object(cache, "get", wraps=cache.get) as get:
        response = api_get(**params)
    assert response.status_code == 200
    return get.call_count


def test_cache_reads_do_not_grow_with_limit(api_get):
    """Wagtail's html_url reads the site root paths from the cache once per row; here once."""
    params = {"type": DIGEST_TYPE, "fields": "*", "locale": "zh-hant"}
    assert cache_reads(api_get, limit=2, **params) == cache_reads(api_get, limit=50, **params)


@pytest.mark.parametrize("attempt", [1, 2])
def test_unknown_fields_are_refused_every_time(api_get, attempt):
    response = api_get(PAGES_URL, type=DIGEST_TYPE, fields="summary,nonsense")
    assert response.status_code == 400
    assert response.json() == {"message": "unknown fields: nonsense"}
