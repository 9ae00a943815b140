"""Filters of the papers endpoint: `search` over title, authors, DOI and venue."""

from __future__ import annotations

from cms.api.filters import CheckedSearchFilter

from .selectors import paper_search_condition


class PaperSearchFilter(CheckedSearchFilter):
    """?search=: every term (any, with search_operator=or) in the title, an author's name, the
    DOI or the venue; the same parameter checks as the pages endpoint's search."""

    def matching(self, queryset, terms, operator):
        return queryset.filter(paper_search_condition(terms, operator=operator))
