"""Wagtail wiring of the digest pages: their create view (cms.digests.admin_views), the pages API
endpoint (cms.api.router), and which papers are public (cms.papers.selectors)."""

from django.db.models import Exists, OuterRef
from django.http import HttpRequest
from wagtail import hooks

from cms.api.visibility import public_pages

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


@hooks.register("register_public_papers_condition")
def papers_on_public_digests(request: HttpRequest, language: str | None) -> Exists:
    """The papers a digest the pages API shows to `request` (in `language` if given) carries."""
    showing = public_pages(request, DigestPage).filter(paper_id=OuterRef("pk"))
    if language is not None:
        showing = showing.filter(locale__language_code=language)
    return Exists(showing)
