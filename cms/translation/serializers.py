"""`translation_status` in the pages API, batched per page of results."""

from typing import Any

from rest_framework import serializers
from wagtail.models import Page

from .status import translation_statuses

_CACHE_KEY = "translation_statuses"


class TranslationStatusField(serializers.Field):
    """A translated page's TranslationStatus as a dict; null for pages that are not translations.

    In a listing, the first row computes the status of every row of the page of results in one
    batch (`translation_statuses()`, a fixed number of queries) and keeps them in the serializer
    context, so the cost does not grow with `limit`. A viewset that already holds the statuses
    can put them in the context under "translation_statuses" ({page id: status}).
    """

    def __init__(self, **kwargs):
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def get_attribute(self, instance: Page) -> Page:
        return instance

    def _rows(self, page: Page) -> list[Page]:
        listing = getattr(self.parent, "parent", None)
        if isinstance(listing, serializers.ListSerializer) and listing.instance is not None:
            return list(listing.instance)
        return [page]

    def to_representation(self, page: Page) -> dict[str, Any] | None:
        cache = self.context.setdefault(_CACHE_KEY, {}) if self.context is not None else {}
        if page.pk not in cache:
            rows = [row for row in self._rows(page) if row.pk not in cache] or [page]
            statuses = translation_statuses(rows)
            cache.update({row.pk: statuses.get(row.pk) for row in rows})
        status = cache.get(page.pk)
        return status.as_dict() if status is not None else None
