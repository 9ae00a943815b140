"""The headless API router: every app's endpoints, then the media and preview ones.

An app adds an endpoint with the `register_api_endpoint` Wagtail hook: a function that returns
`(name, viewset)`, so that this package names no app above it.
"""

from wagtail import hooks
from wagtail.api.v2.router import WagtailAPIRouter

from .media import DocumentsAPIViewSet, ImagesAPIViewSet
from .preview import PagePreviewAPIViewSet

API_ENDPOINT_HOOK = "register_api_endpoint"


def build_api_router() -> WagtailAPIRouter:
    """A router with the endpoints of this package and of every `register_api_endpoint` hook."""
    router = WagtailAPIRouter("wagtailapi")
    for register in hooks.get_hooks(API_ENDPOINT_HOOK):
        name, viewset = register()
        router.register_endpoint(name, viewset)
    router.register_endpoint("images", ImagesAPIViewSet)
    router.register_endpoint("documents", DocumentsAPIViewSet)
    # Last: a page's detail_url is that of the first endpoint serving pages (the pages API's).
    router.register_endpoint("page_preview", PagePreviewAPIViewSet)
    return router
