"""Wagtail's images and documents endpoints with the API's Cache-Control and parameter checks."""

from wagtail.documents.api.v2.views import DocumentsAPIViewSet as WagtailDocumentsAPIViewSet
from wagtail.images.api.v2.views import ImagesAPIViewSet as WagtailImagesAPIViewSet

from cms.api_http import CacheControlMixin, CompactJSONMixin
from cms.api_params import StrictQueryParametersMixin


class ImagesAPIViewSet(
    CacheControlMixin, CompactJSONMixin, StrictQueryParametersMixin, WagtailImagesAPIViewSet
):
    pass


class DocumentsAPIViewSet(
    CacheControlMixin, CompactJSONMixin, StrictQueryParametersMixin, WagtailDocumentsAPIViewSet
):
    pass
