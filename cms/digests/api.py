"""The pages endpoint: Wagtail's PagesAPIViewSet, with the public-page rules and batched reads.

Only three things differ from stock Wagtail: which pages count as public (see
selectors.exclude_unreachable_pages), the locale and search filters (see api_filters), and the
prefetching that keeps a list response at a fixed number of queries whatever its `limit`.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db.models import prefetch_related_objects
from wagtail.api.v2 import filters as wagtail_filters
from wagtail.api.v2.views import PagesAPIViewSet as WagtailPagesAPIViewSet
from wagtail.models import Page

from cms.api_http import CacheControlMixin
from cms.api_params import StrictFieldsFilter, StrictQueryParametersMixin
from cms.papers.serializers import PAPER_PREFETCH

from .api_filters import LocaleFilter, SubstringSearchFilter
from .models import DigestPage, TopicPage
from .selectors import attach_digests, attach_topics, exclude_unreachable_pages


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
        """Live, public, reachable pages of the requested site; built once per request."""
        if not hasattr(self, "_public_pages"):
            self._public_pages = exclude_unreachable_pages(super().get_base_queryset())
        return self._public_pages

    def get_queryset(self):
        queryset = super().get_queryset().select_related("locale")
        if issubclass(queryset.model, DigestPage):
            queryset = queryset.select_related("paper")
        return queryset

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
            prefetch_related_objects(digests, *(f"paper__{name}" for name in PAPER_PREFETCH))
        if digests and "topic" in fields:
            attach_topics(digests, public_pages=self.get_base_queryset())
        if topics and "digests" in fields:
            attach_digests(topics, public_pages=self.get_base_queryset())
