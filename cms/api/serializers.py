"""Wagtail's API serializers, with `html_url` resolved once per request instead of once per row
and `meta.parent` read from the pages API's prefetch.

Wagtail's `html_url` calls `page.full_url`, which reads the site root paths from the cache for
every page of a listing (a cache round trip per row); `get_full_url(request)` keeps them on the
request. The output is the same bytes as Wagtail's, except that a request with a locale fallback
gets `meta.fallback` on each page.
"""

from __future__ import annotations

from django.urls import NoReverseMatch
from rest_framework import serializers
from wagtail.api.v2 import serializers as wagtail_serializers
from wagtail.api.v2.utils import get_object_detail_url

from .fields import PAGE_LANGUAGE
from .prefetch import PREFETCHED_PARENT

_MISSING = object()
# The serializer context's key for the language a request with a locale fallback asked for.
FALLBACK_OF = "fallback_of"


class PageHtmlUrlField(wagtail_serializers.PageHtmlUrlField):
    """Wagtail's `meta.html_url`, resolved with the request, which keeps the site root paths."""

    def to_representation(self, page):
        return full_url(page, self.context.get("request"))


def full_url(page, request) -> str | None:
    try:
        return page.get_full_url(request=request)
    except NoReverseMatch:
        return None


class PublicParentField(wagtail_serializers.PageParentField):
    """Wagtail's `meta.parent`: the parent if it is public, from the pages API's prefetch when
    it made one (cms.api.prefetch.attach_public_parents), else Wagtail's two queries."""

    def get_attribute(self, instance):
        parent = getattr(instance, PREFETCHED_PARENT, _MISSING)
        return super().get_attribute(instance) if parent is _MISSING else parent

    def to_representation(self, parent):
        """Wagtail's representation of the parent, written out: Wagtail builds a serializer
        class for it on every call, whose `html_url` reads the site root paths from the cache
        again instead of from the request."""
        request = self.context["request"]
        page_class = parent.specific_class
        return {
            "id": parent.pk,
            "meta": {
                "type": page_class and f"{page_class._meta.app_label}.{page_class.__name__}",
                "detail_url": get_object_detail_url(
                    self.context["router"], request, type(parent), parent.pk
                ),
                "html_url": full_url(parent, request),
            },
            "title": parent.title,
        }


class PageSerializer(wagtail_serializers.PageSerializer):
    """Wagtail's, with every page's own fields declared: DRF otherwise builds each of them
    from the model field on every request (their kwargs, labels and help texts translated),
    about a fifth of a cold detail's serializing. The output is the same."""

    id = serializers.IntegerField(read_only=True)
    title = serializers.CharField(read_only=True)
    slug = serializers.CharField(read_only=True)
    show_in_menus = serializers.BooleanField(read_only=True)
    seo_title = serializers.CharField(read_only=True)
    search_description = serializers.CharField(read_only=True)
    first_published_at = serializers.DateTimeField(read_only=True)
    html_url = PageHtmlUrlField(read_only=True)
    parent = PublicParentField(read_only=True)

    def to_representation(self, instance):
        """The page, its rich text linking to pages in its own language (a listing holds both
        languages, and the request's language is not the page's).

        Asked for with a locale fallback (the view puts the asked language in the context as
        FALLBACK_OF), its meta says its language and whether it fills in for a page that
        language lacks (`meta.fallback`).
        """
        self.context[PAGE_LANGUAGE] = instance.locale.language_code
        data = super().to_representation(instance)
        asked = self.context.get(FALLBACK_OF)
        if asked is not None:
            meta = data.setdefault("meta", {})
            meta["locale"] = instance.locale.language_code
            meta["fallback"] = instance.locale.language_code != asked
        return data
