"""Wagtail's images and documents endpoints with the API's Cache-Control and parameter checks
(field filters included: Wagtail's answered a bad one with Python's ValueError text),
the pages' checked `search`, and only the images that pages the API shows use. (Documents keep
Wagtail's rule, their collections' privacy: no page content links a document.)"""

from __future__ import annotations

from django.db.models import Q
from wagtail.documents.api.v2.views import DocumentsAPIViewSet as WagtailDocumentsAPIViewSet
from wagtail.images.api.v2.views import ImagesAPIViewSet as WagtailImagesAPIViewSet
from wagtail.models import CollectionViewRestriction

from cms.api.http import PublicAPIMixin
from cms.api.params import StrictFieldsFilter, StrictOrderingFilter

from .filters import CheckedSearchFilter
from .visibility import depends_on_requester, images_used_by_public_pages


class TitleSearchFilter(CheckedSearchFilter):
    """?search=: every term (any, with search_operator=or) in the title, case-insensitively.

    Replaces Wagtail's SearchFilter, which hands the text to the search backend unchecked: on
    SQLite's full-text index a quote or a blank search was a 500. The parameters are checked
    as the pages' and papers' are (a 400 naming what is wrong).
    """

    def matching(self, queryset, terms, operator):
        condition = Q()
        for term in terms:
            matches = Q(title__icontains=term)
            condition = condition | matches if operator == "or" else condition & matches
        return queryset.filter(condition)


MEDIA_FILTERS = [StrictFieldsFilter, StrictOrderingFilter, TitleSearchFilter]


class UsedByPublicPagesMixin:
    """Only the images a page the API shows uses (Wagtail lists every upload)."""

    def get_queryset(self):
        return super().get_queryset().filter(pk__in=images_used_by_public_pages(self.request))


class ImagesAPIViewSet(PublicAPIMixin, UsedByPublicPagesMixin, WagtailImagesAPIViewSet):
    filter_backends = MEDIA_FILTERS

    def depends_on_requester(self) -> bool:
        """A request that passes a page's view restriction sees the images that page uses."""
        return depends_on_requester(self.request)


class DocumentsAPIViewSet(PublicAPIMixin, WagtailDocumentsAPIViewSet):
    filter_backends = MEDIA_FILTERS

    def depends_on_requester(self) -> bool:
        """A request that passes a collection's view restriction sees its documents."""
        restrictions = CollectionViewRestriction.objects.all()
        return any(restriction.accept_request(self.request) for restriction in restrictions)
