"""`translation_status` in the pages API, batched per page of results."""

from typing import Any

from django.db.models import Q
from rest_framework import serializers
from wagtail.models import Page

from cms.api.fields import WholeInstanceField
from cms.translation.status.public import public_translation_statuses

_CACHE_KEY = "translation_statuses"
_NONE_KEY = "translation_statuses_none"


class TranslationStatusField(WholeInstanceField):
    """A translated page's TranslationStatus as a dict; null for pages that are not translations.

    Published facts only (cms.translation.status.public): no staff names, no draft's work, no
    ids of a source page the request may not see. In a listing, the first row computes the
    status of every row of the page of results in one batch (one query) and keeps them in the
    serializer context, so the cost does not grow with `limit`; a detail or a listing of a
    language nothing is translated into needs none.
    """

    def _rows(self, page: Page) -> list[Page]:
        listing = getattr(self.parent, "parent", None)
        if isinstance(listing, serializers.ListSerializer) and listing.instance is not None:
            return list(listing.instance)
        return [page]

    def _language_has_no_translations(self, page: Page) -> bool:
        """Whether the rows are all of one language that nothing is translated into (a detail
        of an English page, or a listing with `?locale=en`, when English is the source): no row
        can have a status then, so the status query, costly to build, is not needed."""
        from cms.api.visibility import translation_target_languages, visibility_facts

        listing = getattr(self.parent, "parent", None)
        request = self.context.get("request")
        if isinstance(listing, serializers.ListSerializer):
            language = request.GET.get("locale") if request is not None else None
        else:
            language = page.locale.language_code
        if language is None:
            return False
        targets = (
            visibility_facts(request).translated_into
            if request is not None
            else translation_target_languages()
        )
        return language not in targets

    def to_representation(self, page: Page) -> dict[str, Any] | None:
        context = self.context  # the serializer's own dict, shared by the rows of a listing
        if _NONE_KEY not in context:  # decided once per request
            context[_NONE_KEY] = self._language_has_no_translations(page)
        if context[_NONE_KEY]:
            return None
        cache = context.setdefault(_CACHE_KEY, {})
        if page.pk not in cache:
            rows = [row for row in self._rows(page) if row.pk not in cache] or [page]
            statuses = public_translation_statuses(rows, public=self._public_condition())
            cache.update({row.pk: statuses.get(row.pk) for row in rows})
        return cache.get(page.pk)

    def _public_condition(self) -> Q:
        """The request's public pages (a source outside them is not named); none without one."""
        from cms.api.visibility import public_page_condition

        request = self.context.get("request")
        return public_page_condition(request) if request is not None else Q(pk__in=[])
