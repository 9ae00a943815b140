"""Wagtail's API serializers, with the per-row work that only depends on the request done once.

Wagtail's `html_url` reads the site root paths from the cache once per row (a cache round trip
for each page of a listing: `Page.full_url` is called without the request that would hold them),
its `detail_url` reverses a URL once per row, its viewsets build a new serializer class with
`type()` for every request, and DRF builds that class's fields by introspecting the model for
every serializer instance. The output is the same bytes as Wagtail's; only the repeats go.
"""

from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

from django.urls import NoReverseMatch
from rest_framework.fields import SkipField
from wagtail.api.v2 import serializers as wagtail_serializers
from wagtail.api.v2.utils import get_object_detail_url

# A primary key no row has, reversed once per model to learn where a row's pk goes in its URL.
_PK_PLACEHOLDER = 2_147_483_647
_DETAIL_URLS = "_detail_url_templates"


class DetailUrlField(wagtail_serializers.DetailUrlField):
    """Wagtail's `meta.detail_url`, with one URL reverse per model per request, not per row."""

    def get_attribute(self, instance):
        templates = self.context.setdefault(_DETAIL_URLS, {})
        model = type(instance)
        if model not in templates:
            templates[model] = _detail_url_template(self.context, model)
        template = templates[model]
        if template is None:
            raise SkipField  # the model has no endpoint: Wagtail hides the field too
        prefix, suffix = template
        return f"{prefix}{instance.pk}{suffix}"


def _detail_url_template(context: dict[str, Any], model: type) -> tuple[str, str] | None:
    url = get_object_detail_url(context["router"], context["request"], model, _PK_PLACEHOLDER)
    if not url:
        return None
    prefix, _placeholder, suffix = url.rpartition(str(_PK_PLACEHOLDER))
    return prefix, suffix


class PageHtmlUrlField(wagtail_serializers.PageHtmlUrlField):
    """Wagtail's `meta.html_url`, resolved with the request, which keeps the site root paths.

    Wagtail's own field calls `page.full_url`, which looks the root paths up in the cache for
    every page; `get_full_url(request)` looks them up once per request (Page._get_site_root_paths).
    """

    def to_representation(self, page):
        try:
            return page.get_full_url(request=self.context.get("request"))
        except NoReverseMatch:
            return None


class PrototypeFieldsMixin:
    """A ModelSerializer's fields built once per class, then deep-copied for each instance.

    DRF's ModelSerializer.get_fields inspects the model and builds every field for each
    serializer instance; copying a built set is what DRF itself does for declared fields, at a
    quarter of the cost. Labels and help texts stay lazy translations, so a copy speaks the
    language active where it is read. The prototype lives on the class, so it goes with it.
    """

    def get_fields(self):
        prototype = type(self).__dict__.get("_field_prototype")
        if prototype is None:
            prototype = super().get_fields()
            type(self)._field_prototype = prototype
        return copy.deepcopy(prototype)


class BaseSerializer(PrototypeFieldsMixin, wagtail_serializers.BaseSerializer):
    detail_url = DetailUrlField(read_only=True)


class PageSerializer(PrototypeFieldsMixin, wagtail_serializers.PageSerializer):
    detail_url = DetailUrlField(read_only=True)
    html_url = PageHtmlUrlField(read_only=True)


def _frozen(fields_config) -> tuple:
    """Wagtail's parsed `fields` parameter (lists of tuples, nested) as a hashable key.

    Wagtail only reads it (it copies before adding to a child's list), so the frozen form is
    what the builder gets too.
    """
    return tuple(
        (name, negated, _frozen(sub_fields) if sub_fields else None)
        for name, negated, sub_fields in fields_config
    )


class ReusedSerializerClassMixin:
    """For Wagtail API viewsets: one serializer class per model and `fields` value, kept.

    Wagtail derives the class from the model, the `fields` parameter and the router alone, and
    builds it anew (with nested classes) on every request. The classes are kept in a bounded
    LRU because `fields` is client input; an invalid value still raises BadRequestError, which
    is never kept.
    """

    @classmethod
    def _get_serializer_class(cls, router, model, fields_config, show_details=False, nested=False):
        return _serializer_class(cls, router, model, _frozen(fields_config), show_details, nested)


@lru_cache(maxsize=512)
def _serializer_class(viewset, router, model, frozen_config, show_details, nested):
    build = super(ReusedSerializerClassMixin, viewset)._get_serializer_class
    return build(router, model, frozen_config, show_details=show_details, nested=nested)
