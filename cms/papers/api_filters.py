"""Filters of the papers endpoint: `search` over title, authors, DOI and venue."""

from __future__ import annotations

from rest_framework.filters import BaseFilterBackend

from cms.digests.api_filters import requested_search

from .selectors import paper_search_condition


class PaperSearchFilter(BaseFilterBackend):
    """?search=: every term (any, with search_operator=or) in the title, an author's name, the
    DOI or the venue; the same parameter checks as the pages endpoint's search."""

    def filter_queryset(self, request, queryset, view):
        search = requested_search(request)
        if search is None:
            return queryset
        terms, operator = search
        if not terms:
            return queryset.none()
        return queryset.filter(paper_search_condition(terms, operator=operator))
