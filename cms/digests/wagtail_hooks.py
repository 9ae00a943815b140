"""Wagtail wiring of the digest pages: their create view (cms.digests.admin_views) and the
pages API endpoint (cms.api.router)."""

from wagtail import hooks

from .admin_views import ProjectPageViewSet
from .api import PagesAPIViewSet
from .models import DigestIndexPage, DigestPage, TopicPage


@hooks.register("register_admin_viewset")
def register_page_viewsets() -> list[ProjectPageViewSet]:
    return [
        ProjectPageViewSet(f"{model._meta.model_name}_pages", model=model)
        for model in (DigestIndexPage, TopicPage, DigestPage)
    ]


@hooks.register("register_api_endpoint")
def register_pages_endpoint() -> tuple[str, type[PagesAPIViewSet]]:
    return "pages", PagesAPIViewSet
