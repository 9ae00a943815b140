"""Filters the API's endpoints share that differ from Wagtail's: locale (and its fallback), and
search's checks."""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet
from django.utils.translation import gettext as _
from rest_framework.filters import BaseFilterBackend
from wagtail.api.v2.utils import BadRequestError
from wagtail.coreutils import get_content_languages

from .search import MAX_SEARCH_LENGTH, MAX_SEARCH_TERMS, search_terms

SEARCH_OPERATORS = ("and", "or")


class LocaleFilter(BaseFilterBackend):
    """?locale=zh-hant; an unknown language code is a 400 listing the known ones (not a 404).

    Checked against WAGTAIL_CONTENT_LANGUAGES (every Locale must be one of them), then filtered
    by a join, without a query of its own.
    """

    def filter_queryset(self, request, queryset, view):
        code = requested_language(request)
        if code is None:
            return queryset
        # Wagtail's filters mark a `child_of` queryset to refuse `descendant_of` with it; that
        # check has run by now (DescendantOfFilter comes first), so the mark is not carried on.
        return queryset.filter(locale__language_code=code)


def requested_language(request) -> str | None:
    """The `locale` parameter as the content language it names (a 400 naming it otherwise).

    Language tags are case-insensitive (BCP 47, 2.1.1): `zh-Hant`, the tag's usual spelling,
    is the configured `zh-hant`; the configured spelling is what filters and is sent back.
    """
    code = request.GET.get("locale")
    if code is None:
        return None
    known = list(get_content_languages())
    configured = {language.lower(): language for language in known}.get(code.lower())
    if configured is None:
        raise BadRequestError(
            _("locale %(code)r is not one of: %(known)s")
            % {"code": code, "known": ", ".join(known)}
        )
    return configured


def requested_fallback(request) -> str | None:
    """`fallback`, the language whose pages fill in for those `locale` lacks: only the default
    language (settings.LANGUAGE_CODE, the one every page is written in first), and only beside
    `locale`, or on find/ by `html_path`, whose prefix names the language (a 400 otherwise).

    None without the parameter, and on find/ by address without `locale` (every language is
    searched there already); the configured spelling otherwise, which may be `locale` itself
    (nothing to fill in then).
    """
    value = request.GET.get("fallback")
    if value is None:
        return None
    default = settings.LANGUAGE_CODE
    if value.lower() != default.lower():
        raise BadRequestError(_("fallback must be %(code)s") % {"code": default})
    if requested_language(request) is None:
        if "html_path" in request.GET:
            return None
        raise BadRequestError(
            _("%(name)s needs %(other)s") % {"name": "fallback", "other": "locale"}
        )
    return default


class CheckedSearchFilter(BaseFilterBackend):
    """?search= with its parameters checked (`requested_search`, a 400 naming a bad one) and
    a blank search matching nothing; each endpoint's subclass says what a term matches."""

    def filter_queryset(self, request, queryset, view):
        search = requested_search(request)
        if search is None:
            return queryset
        terms, operator = search
        if not terms:
            return queryset.none()
        return self.matching(queryset, terms, operator)

    def matching(self, queryset: QuerySet, terms: list[str], operator: str) -> QuerySet:
        raise NotImplementedError


def requested_search(request) -> tuple[list[str], str] | None:
    """`search` and `search_operator`, checked: (terms, operator), or None without `search`.

    Every bad value is a 400 naming the parameter; the pages and papers endpoints share it.
    """
    if "search" not in request.GET:
        return None
    if not getattr(settings, "WAGTAILAPI_SEARCH_ENABLED", True):
        raise BadRequestError(_("search is disabled"))
    query = request.GET["search"]
    if len(query) > MAX_SEARCH_LENGTH:
        raise BadRequestError(
            _("search must be at most %(max)d characters") % {"max": MAX_SEARCH_LENGTH}
        )
    operator = request.GET.get("search_operator", "and")
    if operator not in SEARCH_OPERATORS:
        raise BadRequestError(_("search_operator must be 'and' or 'or'"))
    terms = search_terms(query)
    if len(terms) > MAX_SEARCH_TERMS:
        raise BadRequestError(
            _("search must have at most %(max)d words") % {"max": MAX_SEARCH_TERMS}
        )
    return terms, operator
