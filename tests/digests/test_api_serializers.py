"""The API's meta URLs and serializer classes (cms.api_serializers): Wagtail's values, once."""

from unittest import mock

import pytest
from django.core.cache import caches
from django.urls import reverse
from django.utils import translation
from wagtail.api.v2.utils import parse_fields_parameter
from wagtail.models import Page

from cms.api import api_router
from cms.digests.api import PagesAPIViewSet
from cms.digests.models import DigestPage
from cms.papers.api import PapersAPIViewSet
from cms.papers.models import Paper

from .conftest import DIGEST_TYPE, PAGES_URL

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


def serializer_class(viewset, model, fields: str, **kwargs):
    return viewset._get_serializer_class(
        api_router, model, parse_fields_parameter(fields), **kwargs
    )


def test_serializer_classes_are_built_once_per_model_and_fields():
    first = serializer_class(PagesAPIViewSet, DigestPage, "*,-body")
    assert serializer_class(PagesAPIViewSet, DigestPage, "*,-body") is first
    assert serializer_class(PagesAPIViewSet, DigestPage, "*") is not first
    assert serializer_class(PagesAPIViewSet, DigestPage, "*,-body", show_details=True) is not first
    assert "body" not in first.Meta.fields and "summary" in first.Meta.fields
    assert serializer_class(PapersAPIViewSet, Paper, "title") is not first


@pytest.mark.parametrize("attempt", [1, 2])
def test_unknown_fields_are_refused_every_time(api_get, attempt):
    response = api_get(PAGES_URL, type=DIGEST_TYPE, fields="summary,nonsense")
    assert response.status_code == 400
    assert response.json() == {"message": "unknown fields: nonsense"}


def test_each_serializer_gets_its_own_fields_labelled_in_the_active_language():
    """Fields are copied from one prototype per class, never shared between serializers (DRF
    binds each field to its parent), and their labels are translated where they are read."""
    serializer = serializer_class(PagesAPIViewSet, DigestPage, "*")
    first, second = serializer(context={}).fields, serializer(context={}).fields
    assert list(first) == list(second) and "summary" in first
    assert all(first[name] is not second[name] for name in first)
    assert first["summary"].parent is not second["summary"].parent
    label = serializer(context={}).fields["reading_minutes"].label
    with translation.override("en"):
        assert str(label) == "Reading time (minutes)"
    with translation.override("zh-hant"):
        assert str(label) == "閱讀時間(分鐘)"
