"""Wagtail's API serializers, with `html_url` resolved once per request instead of once per row
and `meta.parent` read from the pages API's prefetch.

Wagtail's `html_url` calls `page.full_url`, which reads the site root paths from the cache for
every page of a listing (a cache round trip per row); `get_full_url(request)` keeps them on the
request. The output is the same bytes as Wagtail's.
"""

from __future__ import annotations

from django.urls import NoReverseMatch
from wagtail.api.v2 import serializers as wagtail_serializers

from cms.digests.selectors import PREFETCHED_PARENT

_MISSING = object()


class PageHtmlUrlField(wagtail_serializers.PageHtmlUrlField):
    """Wagtail's `meta.html_url`, resolved with the request, which keeps the site root paths."""

    def to_representation(self, page):
        try:
            return page.get_full_url(request=self.context.get("request"))
        except NoReverseMatch:
            return None


class PublicParentField(wagtail_serializers.PageParentField):
    """Wagtail's `meta.parent`: the parent if it is public, from the pages API's prefetch when
    it made one (cms.digests.selectors.attach_public_parents), else Wagtail's two queries."""

    def get_attribute(self, instance):
        parent = getattr(instance, PREFETCHED_PARENT, _MISSING)
        return super().get_attribute(instance) if parent is _MISSING else parent


class PageSerializer(wagtail_serializers.PageSerializer):
    html_url = PageHtmlUrlField(read_only=True)
    parent = PublicParentField(read_only=True)
