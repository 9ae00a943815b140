"""The pages API's search: a substring of the page's search text (cms.digests.search)."""

from __future__ import annotations

from django.db.models import Q, QuerySet
from wagtail.models import Page, get_page_models

from cms.api.filters import CheckedSearchFilter

from .search import SearchTextMixin, search_text_condition


class SubstringSearchFilter(CheckedSearchFilter):
    """?search=: every term must occur in the page's search text (any term with operator "or").

    Replaces Wagtail's SearchFilter for pages: see cms.digests.search for why. Pages of a type
    without search text never match; results keep the listing's order (tree order by default).
    """

    def matching(self, queryset, terms, operator):
        return filter_by_search_text(queryset, search_text_condition(terms, operator=operator))


def filter_by_search_text(queryset: QuerySet, condition: Q) -> QuerySet:
    """Apply `condition` directly on a searchable model, or through a pk subquery for Page."""
    model = queryset.model
    if issubclass(model, SearchTextMixin):
        return queryset.filter(condition)
    searchable = [
        page_model
        for page_model in get_page_models()
        if issubclass(page_model, SearchTextMixin) and issubclass(page_model, model)
    ]
    if not searchable or not issubclass(model, Page):
        return queryset.none()
    matches = Q()
    for page_model in searchable:
        matches |= Q(pk__in=page_model.objects.filter(condition).values("pk"))
    return queryset.filter(matches)
