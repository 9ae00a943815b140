"""The pages endpoint: Wagtail's PagesAPIViewSet, with the public-page rules and batched reads.

Four things differ from stock Wagtail: which pages count as public (see
visibility.PublicRule, applied to the requested page type directly), the locale and
search filters (see api_filters), the prefetching that keeps a list response at a fixed
number of queries whatever its `limit`, and `find/?html_path=` reading a `/zh-hant/` prefix.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db.models import QuerySet
from django.http import Http404
from django.utils import translation
from django.utils.functional import SimpleLazyObject
from django.utils.translation import gettext as _
from wagtail.api.v2 import filters as wagtail_filters
from wagtail.api.v2.utils import BadRequestError, page_models_from_string
from wagtail.api.v2.views import PagesAPIViewSet as WagtailPagesAPIViewSet
from wagtail.models import Page, get_page_models

from cms.api.filters import LocaleFilter, requested_language
from cms.api.http import PublicAPIMixin
from cms.api.params import StrictFieldsFilter, StrictOrderingFilter
from cms.api.prefetch import attach_public_parents
from cms.api.serializers import PageSerializer
from cms.api.visibility import (
    depends_on_requester,
    link_targets,
    public_page_condition,
    public_pages,
    public_rule,
)
from cms.papers.selectors import attach_paper_parts

from .api_filters import SubstringSearchFilter
from .models import DigestPage, TopicPage
from .rich_text import page_link_ids
from .selectors import attach_digests

# StreamFields whose rich text may link to pages (cms.digests.blocks.relink_pages).
RICH_TEXT_STREAMS = frozenset({"body", "commentary"})


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
        return context

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
        return None

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
