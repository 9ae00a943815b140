"""The pages endpoint: Wagtail's PagesAPIViewSet, with the public-page rules and batched reads.

Five things differ from stock Wagtail: which pages count as public (see
visibility.PublicRule, applied to the requested page type directly), the locale and
search filters (see api_filters), the prefetching that keeps a list response at a fixed
number of queries whatever its `limit`, `find/?html_path=` reading a `/zh-hant/` prefix, and
`fallback=en`, which fills in the pages `locale` lacks with their English pages.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from copy import copy
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db.models import Case, Q, QuerySet, Value, When
from django.http import Http404, QueryDict
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from wagtail.api.v2 import filters as wagtail_filters
from wagtail.api.v2.utils import BadRequestError, page_models_from_string
from wagtail.api.v2.views import PagesAPIViewSet as WagtailPagesAPIViewSet
from wagtail.models import Page, get_page_models

from cms.api.filters import LocaleFilter, requested_fallback, requested_language
from cms.api.http import PublicAPIMixin
from cms.api.params import StrictFieldsFilter, StrictOrderingFilter
from cms.api.prefetch import attach_public_parents
from cms.api.serializers import FALLBACK_OF, PageSerializer
from cms.api.visibility import (
    depends_on_requester,
    link_targets,
    public_page_condition,
    public_pages,
    public_rule,
)
from cms.papers.selectors import attach_paper_parts

from .api_filters import SubstringSearchFilter
from .fallback import fallback_page
from .models import DigestPage, TopicPage
from .rich_text import page_link_ids
from .selectors import attach_digests

# StreamFields whose rich text may link to pages (cms.digests.blocks.relink_pages).
RICH_TEXT_STREAMS = frozenset({"body", "commentary"})
# Filters naming a page of the asked language's tree: a fallback asks them of its English page.
TREE_FILTERS = ("child_of", "descendant_of", "ancestor_of")


def requested_page_types(value: str) -> tuple[type[Page], ...]:
    """`type`'s page models, read by Wagtail one name at a time, so that a 400 names the one
    that is not a page type and those there are (Wagtail's said "type doesn't exist")."""
    models: list[type[Page]] = []
    for name in value.split(","):
        try:
            models += page_models_from_string(name)
        except (LookupError, ValueError) as error:
            known = ", ".join(model._meta.label for model in get_page_models())
            raise BadRequestError(
                _("type %(type)r is not a page type; page types: %(known)s")
                % {"type": name, "known": known}
            ) from error
    return tuple(models)


class PagesAPIViewSet(PublicAPIMixin, WagtailPagesAPIViewSet):
    base_serializer_class = PageSerializer
    known_query_parameters = WagtailPagesAPIViewSet.known_query_parameters | {"fallback"}
    filter_backends = [
        StrictFieldsFilter,
        wagtail_filters.ChildOfFilter,
        wagtail_filters.AncestorOfFilter,
        wagtail_filters.DescendantOfFilter,
        StrictOrderingFilter,
        wagtail_filters.TranslationOfFilter,
        LocaleFilter,
        SubstringSearchFilter,
    ]

    def get_base_queryset(self):
        """Live, public, reachable pages of the requested site."""
        return public_pages(self.request)

    def get_queryset(self):
        """Wagtail's `type` handling, with the public rules applied to the typed queryset itself.

        Built once per request (Wagtail asks for it again to pick the serializer).
        """
        if getattr(self, "api_queryset", None) is None:
            type_parameter = self.request.GET.get("type")
            models = requested_page_types(type_parameter) if type_parameter else ()
            if len(models) == 1:
                queryset = public_pages(self.request, models[0])
            else:
                queryset = self.get_base_queryset()
                if models:
                    queryset = queryset.type(*models)
            queryset = queryset.select_related("locale")
            if issubclass(queryset.model, DigestPage):
                queryset = queryset.select_related("paper")
            self.api_queryset = queryset
        return self.api_queryset

    def get_serializer_context(self):
        """Wagtail's context, with the public pages behind `meta.parent` built only if asked for.

        Wagtail's PagesAPIViewSet builds `base_queryset` for every request, but only the
        detail view's `meta.parent` reads it; building the public condition into a queryset
        costs more than a listing's count query.
        """
        context = super(WagtailPagesAPIViewSet, self).get_serializer_context()
        context["base_queryset"] = SimpleLazyObject(self.get_base_queryset)
        if requested_fallback(self.request) is not None:
            context[FALLBACK_OF] = requested_language(self.request)
        return context

    def filter_queryset(self, queryset):
        """The filters as Wagtail runs them; with `fallback=en`, the English pages that the
        asked locale has no public translation of are added, as the same filters select them
        in English (tree filters asked of their pages' English translations).

        Without an `order`, the asked locale's pages come first, then the English ones, each
        in tree order. Two queries more at most (the tree filters' pages), none per page.
        """
        asked = super().filter_queryset(queryset)
        fallback = requested_fallback(self.request)
        language = requested_language(self.request)
        if fallback is None or fallback == language:
            return asked
        english = self.fallback_pages(queryset, fallback)
        translated = public_pages(self.request).filter(locale__language_code=language)
        english = english.exclude(translation_key__in=translated.values("translation_key"))
        both = queryset.filter(Q(pk__in=asked.values("pk")) | Q(pk__in=english.values("pk")))
        if "order" in self.request.GET:
            return StrictOrderingFilter().filter_queryset(self.request, both, self)
        asked_first = Case(When(locale__language_code=language, then=Value(0)), default=Value(1))
        return both.order_by(asked_first, "path")

    def fallback_pages(self, queryset: QuerySet, fallback: str) -> QuerySet:
        """`queryset` filtered as the request asks, in the `fallback` language."""
        params = self.request.GET.copy()
        params["locale"] = fallback
        del params["fallback"]
        tree = {
            name: int(params[name]) for name in TREE_FILTERS if params.get(name, "root") != "root"
        }
        if tree:
            mapped = translations_in(self.request, set(tree.values()), fallback)
            if not set(tree.values()) <= set(mapped):
                return queryset.none()  # a page with no public English translation
            for name, pk in tree.items():
                params[name] = str(mapped[pk])
        # The same request with other parameters: Wagtail's filters read `request.GET`.
        twin = copy(self.request)
        twin.GET = QueryDict(params.urlencode())
        for backend in self.filter_backends:
            queryset = backend().filter_queryset(twin, queryset, self)
        return queryset

    def find_object(self, queryset, request):
        """Wagtail's lookups, with `html_path` taken as the site's addresses are: language-prefixed.

        Wagtail routes `html_path` from the default language's root only, so the path of a
        translation's `html_url` (/zh-hant/...) finds nothing (wagtail/wagtail#6679, open). Here
        the prefix picks the language and Wagtail's own routing (Page.find_for_request, which
        starts from the site root's translation in the active language) does the rest.
        """
        if "html_path" not in request.GET:
            return super().find_object(queryset, request)
        language_code, page_path = split_language_prefix(request.GET["html_path"])
        with translation.override(language_code):
            page = Page.find_for_request(request, page_path)
        if page is not None and self.filter_queryset(queryset).filter(pk=page.pk).exists():
            return page
        if "fallback" in request.GET:
            requested_fallback(request)  # a 400 for any language but the default
            page = fallback_page(request, language_code, page_path)
            if page is not None and self.filter_queryset(queryset).filter(pk=page.pk).exists():
                return page
        return None

    def find_view(self, request):
        """Wagtail's find/, whose redirect keeps the query: a find by address with `fallback`
        and no `locale` names the address's language, so that the detail says whether the
        page found fills in for it (`meta.fallback`)."""
        response = super().find_view(request)
        if "html_path" in request.GET and "fallback" in request.GET and "locale" not in request.GET:
            language_code, _path = split_language_prefix(request.GET["html_path"])
            separator = "&" if "?" in response["Location"] else "?"
            response["Location"] += separator + urlencode({"locale": language_code})
        return response

    def paginate_queryset(self, queryset):
        pages = list(super().paginate_queryset(queryset))
        self.prefetch_for_serializer(pages)
        return pages

    def get_serializer(self, *args, **kwargs):
        """Wagtail's, noting the languages of the pages serialized (`content_languages`)."""
        instance = args[0] if args else kwargs.get("instance")
        pages = instance if kwargs.get("many") else [instance]
        if instance is not None:
            self.served_languages = {page.locale.language_code for page in pages}
        return super().get_serializer(*args, **kwargs)

    def content_languages(self) -> set[str]:
        """The languages of the pages sent; of an empty listing, its `locale` if given."""
        languages = getattr(self, "served_languages", set())
        if not languages and (code := requested_language(self.request)):
            return {code}  # checked by LocaleFilter before any 200
        return languages

    def depends_on_requester(self) -> bool:
        return depends_on_requester(self.request)

    def get_object(self):
        """The specific page with the relations its fields show loaded, once per request.

        Wagtail's get_object reads the page, then `.specific` reads it again without its
        locale (and a digest without its paper), which the fields then read one by one. The
        page is read by id and type alone and the public rule applied to it as read
        (PublicRule.public_among): compiling the rule's condition into the query costs more
        than the query.
        """
        if getattr(self, "api_object", None) is None:
            pk = self.kwargs[self.lookup_field]
            # By id alone, unordered: compiling Page's default ordering (path) costs more than
            # running these queries.
            type_id = first(Page.objects.filter(pk=pk).values_list("content_type_id", flat=True))
            if type_id is None:
                raise page_not_found()
            model = page_model(type_id)
            related = ["locale", "paper"] if issubclass(model, DigestPage) else ["locale"]
            queryset = self.filter_queryset(model.objects.select_related(*related))
            page = first(queryset.filter(pk=pk))
            if page is None or not public_rule(self.request).public_among([page]):
                raise page_not_found()
            if "type" in self.request.GET and not self.get_queryset().filter(pk=pk).exists():
                raise page_not_found()  # as stock Wagtail: a page of another type is not found
            self.check_object_permissions(self.request, page)
            self.api_object = page
            self.prefetch_for_serializer([page])
        return self.api_object

    def get_serializer_class(self):
        """Wagtail's, built once per request: Wagtail builds a new class on every call, and the
        view asks for it to choose its prefetches as well as to serialize."""
        if getattr(self, "api_serializer_class", None) is None:
            self.api_serializer_class = super().get_serializer_class()
        return self.api_serializer_class

    def prefetch_for_serializer(self, pages: Sequence[Page]) -> None:
        """Load the relations the requested fields need, once for all `pages`."""
        if not pages:
            return
        fields = set(self.get_serializer_class().Meta.fields)
        digests = [page for page in pages if isinstance(page, DigestPage)]
        topics = [page for page in pages if isinstance(page, TopicPage)]
        if digests and "paper" in fields:
            attach_paper_parts(digest.paper for digest in digests)
        if "parent" in fields:
            attach_public_parents(pages, rule=public_rule(self.request))
        elif digests and "topic" in fields:
            attach_public_parents(digests, rule=public_rule(self.request))
        if topics and "digests" in fields:
            attach_digests(topics, public=public_page_condition(self.request))
        # A listing's rich-text links are looked up at once; a detail's block looks up its own.
        streams = RICH_TEXT_STREAMS & fields if len(pages) > 1 else set()
        linked: dict[str, set[int]] = defaultdict(set)  # by the linking page's language
        for name in streams:
            for page in pages:
                stream = getattr(page, name, None)
                if stream is not None:
                    language = page.locale.language_code
                    linked[language] |= page_link_ids(json.dumps(list(stream.raw_data)))
        for language, ids in linked.items():
            if ids:
                link_targets(self.request, ids, language)


def translations_in(request, ids: set[int], language: str) -> dict[int, int]:
    """Page id -> the id of its public translation in `language` (itself if it is in it)."""
    keys = dict(Page.objects.filter(pk__in=ids).values_list("pk", "translation_key"))
    found = dict(
        public_pages(request)
        .filter(translation_key__in=keys.values(), locale__language_code=language)
        .values_list("translation_key", "pk")
    )
    return {pk: found[key] for pk, key in keys.items() if key in found}


def first(queryset: QuerySet) -> Any:
    """The first row of `queryset` read without ordering (the caller filtered it to one row),
    or None."""
    return next(iter(queryset.order_by()[:1]), None)


def page_not_found() -> Http404:
    """Stock Wagtail's answer for any page it does not show: the same whether the page is
    missing, filtered out or not public, and naming no page type."""
    return Http404(translation.gettext("No %s matches the given query.") % Page._meta.object_name)


def page_model(content_type_id: int) -> type[Page]:
    """The page class of a content type (Page if its model is gone)."""
    model = ContentType.objects.get_for_id(content_type_id).model_class()
    return model if model is not None and issubclass(model, Page) else Page


def split_language_prefix(html_path: str) -> tuple[str, str]:
    """`/zh-hant/a/b/` -> ("zh-hant", "a/b"); a path without a prefix is the default language's.

    The prefix is a language code exactly as i18n_patterns writes it (LocalePrefixPattern).
    """
    components = [component for component in html_path.split("/") if component]
    prefixed = {code for code, _name in settings.LANGUAGES} - {settings.LANGUAGE_CODE}
    if components and components[0] in prefixed:
        return components[0], "/".join(components[1:])
    return settings.LANGUAGE_CODE, "/".join(components)
