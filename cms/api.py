"""The headless API router: registrations only; fields live on the models."""

from wagtail.api.v2.router import WagtailAPIRouter

from cms.digests.api import PagesAPIViewSet
from cms.media_api import DocumentsAPIViewSet, ImagesAPIViewSet
from cms.papers.api import PapersAPIViewSet
from cms.preview.api import PagePreviewAPIViewSet

api_router = WagtailAPIRouter("wagtailapi")
api_router.register_endpoint("pages", PagesAPIViewSet)
api_router.register_endpoint("images", ImagesAPIViewSet)
api_router.register_endpoint("documents", DocumentsAPIViewSet)
api_router.register_endpoint("papers", PapersAPIViewSet)
api_router.register_endpoint("page_preview", PagePreviewAPIViewSet)
