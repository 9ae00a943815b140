"""The `papers` API endpoint: shared paper metadata, the same for both languages."""

from wagtail.api.v2.filters import OrderingFilter
from wagtail.api.v2.serializers import BaseSerializer
from wagtail.api.v2.views import BaseAPIViewSet

from cms.api_http import CacheControlMixin, CompactJSONMixin
from cms.api_params import StrictFieldsFilter, StrictQueryParametersMixin

from .cite import CitationNegotiationMixin
from .models import Paper
from .selectors import attach_paper_parts


class PapersAPIViewSet(
    CitationNegotiationMixin,
    CacheControlMixin,
    CompactJSONMixin,
    StrictQueryParametersMixin,
    BaseAPIViewSet,
):
    base_serializer_class = BaseSerializer
    model = Paper
    name = "papers"
    filter_backends = [StrictFieldsFilter, OrderingFilter]
    body_fields = [*BaseAPIViewSet.body_fields, "title", "venue", "year", "track", "doi"]
    listing_default_fields = [
        *BaseAPIViewSet.listing_default_fields,
        "title",
        "venue",
        "year",
        "doi",
    ]

    def get_queryset(self):
        return Paper.objects.order_by("id")

    def paginate_queryset(self, queryset):
        papers = list(super().paginate_queryset(queryset))
        attach_paper_parts(papers)
        return papers
