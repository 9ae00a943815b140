"""The `papers` API endpoint: shared paper metadata, the same for both languages.

A paper is shown only while a live, public digest shows it (`?locale=` narrows that to the
digests of one language): see cms.papers.selectors.papers_on_public_pages.
"""

from rest_framework.renderers import JSONRenderer
from wagtail.api.v2.serializers import BaseSerializer
from wagtail.api.v2.views import BaseAPIViewSet

from cms.api.fields import PAGE_LANGUAGE
from cms.api.filters import requested_language
from cms.api.http import PublicAPIMixin
from cms.api.params import StrictFieldsFilter, StrictOrderingFilter
from cms.api.visibility import depends_on_requester

from .api_filters import PaperSearchFilter
from .cite import CitationNegotiationMixin
from .models import Paper
from .selectors import attach_paper_parts, papers_on_public_pages


class PapersAPIViewSet(CitationNegotiationMixin, PublicAPIMixin, BaseAPIViewSet):
    base_serializer_class = BaseSerializer
    model = Paper
    name = "papers"
    filter_backends = [StrictFieldsFilter, PaperSearchFilter, StrictOrderingFilter]
    known_query_parameters = BaseAPIViewSet.known_query_parameters.union(["locale"])
    body_fields = [*BaseAPIViewSet.body_fields, "title", "venue", "year", "track", "doi"]
    listing_default_fields = [
        *BaseAPIViewSet.listing_default_fields,
        "title",
        "venue",
        "year",
        "doi",
        "retracted",  # a list of papers says which not to rely on
    ]

    def get_queryset(self):
        """Only papers that a live, public digest shows, in the `locale` language if given."""
        if not hasattr(self, "_queryset"):
            language = requested_language(self.request)
            queryset = papers_on_public_pages(self.request, language=language)
            self._queryset = queryset.order_by("id")
        return self._queryset

    def get_serializer_context(self):
        """The venue's name in the `locale` language when one is asked for."""
        context = super().get_serializer_context()
        context[PAGE_LANGUAGE] = requested_language(self.request)
        return context

    def content_languages(self) -> set[str]:
        """`locale`'s language, that of the venue names (else the request's, as Django says).
        A citation names the venue by its own name, so it is left to Django's rule."""
        renderer = getattr(self.request, "accepted_renderer", None)
        code = requested_language(self.request)
        return {code} if code and isinstance(renderer, JSONRenderer) else set()

    def depends_on_requester(self) -> bool:
        """Papers are shown through public digests, so whoever passes a view restriction may
        see more of them: their answers are private, as the pages endpoint's are."""
        return depends_on_requester(self.request)

    def paginate_queryset(self, queryset):
        papers = list(super().paginate_queryset(queryset))
        attach_paper_parts(papers)
        return papers
