"""The pages endpoint: Wagtail's PagesAPIViewSet, with the public-page rules and batched reads.

Only three things differ from stock Wagtail: which pages count as public (see
visibility.public_page_condition, applied to the requested page type directly), the locale and
search filters (see api_filters), and the prefetching that keeps a list response at a fixed
number of queries whatever its `limit`.
"""

from __future__ import annotations

from collections.abc import Sequence

from wagtail.api.v2 import filters as wagtail_filters
from wagtail.api.v2.utils import BadRequestError, page_models_from_string
from wagtail.api.v2.views import PagesAPIViewSet as WagtailPagesAPIViewSet
from wagtail.models import Page

from cms.api_http import CacheControlMixin
from cms.api_params import StrictFieldsFilter, StrictQueryParametersMixin
from cms.papers.selectors import attach_paper_parts

from .api_filters import LocaleFilter, SubstringSearchFilter
from .models import DigestPage, TopicPage
from .selectors import attach_digests, attach_topics
from .visibility import public_page_condition, public_pages


class PagesAPIViewSet(CacheControlMixin, StrictQueryParametersMixin, WagtailPagesAPIViewSet):
    filter_backends = [
        StrictFieldsFilter,
        wagtail_filters.ChildOfFilter,
        wagtail_filters.AncestorOfFilter,
        wagtail_filters.DescendantOfFilter,
        wagtail_filters.OrderingFilter,
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
        if not hasattr(self, "_queryset"):
            try:
                type_parameter = self.request.GET.get("type")
                models = page_models_from_string(type_parameter) if type_parameter else ()
            except (LookupError, ValueError) as error:
                raise BadRequestError("type doesn't exist") from error
            if len(models) == 1:
                queryset = public_pages(self.request, models[0])
            else:
                queryset = self.get_base_queryset()
                if models:
                    queryset = queryset.type(*models)
            queryset = queryset.select_related("locale")
            if issubclass(queryset.model, DigestPage):
                queryset = queryset.select_related("paper")
            self._queryset = queryset
        return self._queryset

    def paginate_queryset(self, queryset):
        pages = list(super().paginate_queryset(queryset))
        self.prefetch_for_serializer(pages)
        return pages

    def get_object(self):
        if not hasattr(self, "_cached_object"):
            page = super().get_object()
            self.prefetch_for_serializer([page])
        return self._cached_object.specific

    def requested_fields(self) -> set[str]:
        return set(self.get_serializer_class().Meta.fields)

    def prefetch_for_serializer(self, pages: Sequence[Page]) -> None:
        """Load the relations the requested fields need, once for all `pages`."""
        if not pages:
            return
        fields = self.requested_fields()
        digests = [page for page in pages if isinstance(page, DigestPage)]
        topics = [page for page in pages if isinstance(page, TopicPage)]
        if digests and "paper" in fields:
            attach_paper_parts(digest.paper for digest in digests)
        if digests and "topic" in fields:
            attach_topics(digests, public=public_page_condition(self.request))
        if topics and "digests" in fields:
            attach_digests(topics, public=public_page_condition(self.request))
