"""Citations over HTTP: `/api/v2/papers/<id>/cite/` and content negotiation on the paper itself.

`GET /api/v2/papers/<id>/cite/?format=bibtex|ris|csl-json|text&style=acm|ieee` answers in the
format's media type. `GET /api/v2/papers/<id>/` answers the same to an `Accept` header naming one
of them, as doi.org does (`text/x-bibliography; style=ieee` for formatted text), and JSON
otherwise; its responses vary on `Accept` so that no cache hands one format to another client.

A paper is citable only while a live, public page shows it (cms.api.visibility's rule), so a
paper known only to a draft or a private page is a 404 here as everywhere else in the API.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import path, reverse
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_header_parameters
from django.utils.translation import gettext as _
from rest_framework.renderers import BaseRenderer, JSONRenderer

from cms.api.http import add_cache_control, read_only_api_view
from cms.api.params import (
    missing_companion_message,
    repeated_parameter_message,
    unknown_parameters_message,
)
from cms.api.visibility import depends_on_requester

from . import citations
from .selectors import attach_paper_parts, papers_on_public_pages

CITE_PARAMETERS = ("format", "style")
# `style` styles formatted text only: beside another format it would be ignored.
CITE_PARAMETER_NEEDS = {"style": ("format", "text")}

# Media types a client may ask for by `Accept` and the format each stands for. Formatted text is
# doi.org's `text/x-bibliography`; `text/plain` is left to the cite endpoint, since browsers and
# tools send it without meaning a citation.
BIBLIOGRAPHY_MEDIA_TYPE = "text/x-bibliography"
NEGOTIATED_FORMATS = {
    **{f.media_type: f.name for f in citations.FORMATS.values() if not f.styled},
    BIBLIOGRAPHY_MEDIA_TYPE: "text",
}


class CitationError(ValueError):
    """A bad `format` or `style`; the message names the parameter and the values it takes."""


def check_style(value: str) -> str:
    if value not in citations.STYLES:
        raise CitationError(
            _("style must be one of %(choices)s") % {"choices": ", ".join(citations.STYLES)}
        )
    return value


def citation_response(
    request: HttpRequest,
    paper_id: int,
    citation_format: str,
    *,
    style: str = citations.DEFAULT_STYLE,
    media_type: str | None = None,
) -> HttpResponse:
    """The citation as a response, or a JSON 404 as the rest of the API answers one (a paper
    is citable while a live public page, in any language, shows it to `request`)."""
    paper = papers_on_public_pages(request).filter(pk=paper_id).first()
    if paper is None:
        return JsonResponse({"message": _("No citable paper with this id.")}, status=404)
    attach_paper_parts([paper])  # authors, links and notices, read once for every format
    body = citations.render(paper, citation_format, style=style)
    media_type = media_type or citations.FORMATS[citation_format].media_type
    response = HttpResponse(body, content_type=f"{media_type}; charset=utf-8")
    response["Content-Language"] = citations.citation_language()  # the content's, as a page's
    extension = {"bibtex": "bib", "ris": "ris", "csl-json": "json", "text": "txt"}
    filename = f"{citations.citation_key(paper)}.{extension[citation_format]}"
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def cite_paths(paper_id: int) -> list[str]:
    """Every address of the paper's citations a front end or the reader asks for, to purge from
    shared caches when the paper or its digests change (a CDN keys on the query string)."""
    base = reverse("wagtailapi:papers:cite", args=[paper_id])
    queries = [f"format={name}" for name in citations.FORMATS]
    queries += [f"format=text&style={style}" for style in citations.STYLES]
    return [base] + [f"{base}?{query}" for query in queries]


@read_only_api_view
def cite_view(request: HttpRequest, pk: int) -> HttpResponse:
    """`/api/v2/papers/<pk>/cite/`: a 400 names any unknown parameter or bad value."""
    try:
        if message := unknown_parameters_message(request.GET, CITE_PARAMETERS):
            raise CitationError(message)
        if message := repeated_parameter_message(request.GET):
            raise CitationError(message)
        if message := missing_companion_message(request.GET, CITE_PARAMETER_NEEDS):
            raise CitationError(message)
        citation_format = request.GET.get("format", citations.DEFAULT_FORMAT)
        if citation_format not in citations.FORMATS:
            choices = ", ".join(citations.FORMATS)
            raise CitationError(_("format must be one of %(choices)s") % {"choices": choices})
        style = check_style(request.GET.get("style", citations.DEFAULT_STYLE))
    except CitationError as error:
        return JsonResponse({"message": str(error)}, status=400)
    response = citation_response(request, pk, citation_format, style=style)
    return add_cache_control(response, private=depends_on_requester(request))


class CitationRenderer(BaseRenderer):
    """Lets DRF's content negotiation pick a citation format for the paper's detail view.

    The view answers those itself (CitationNegotiationMixin.detail_view); nothing is rendered
    from the serialized JSON.
    """

    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        raise NotImplementedError("citations are answered by the view")


class CitationNegotiationMixin:
    """For the papers viewset: the `cite/` route, and citations by `Accept` on the detail."""

    @classmethod
    def get_urlpatterns(cls):
        return [*super().get_urlpatterns(), path("<int:pk>/cite/", cite_view, name="cite")]

    def get_renderers(self):
        renderers = super().get_renderers()
        if getattr(self, "action", None) == "detail_view":
            for media_type, name in NEGOTIATED_FORMATS.items():
                renderer = CitationRenderer()
                renderer.media_type, renderer.format = media_type, name
                renderers.append(renderer)
        return renderers

    def detail_view(self, request, pk):
        renderer = getattr(request, "accepted_renderer", None)
        if not isinstance(renderer, CitationRenderer):
            return super().detail_view(request, pk)
        style = citations.DEFAULT_STYLE
        if renderer.format == "text":
            _media_type, params = parse_header_parameters(request.accepted_media_type)
            try:
                style = check_style(params.get("style", style))
            except CitationError as error:
                return JsonResponse({"message": str(error)}, status=400)
        return citation_response(
            request, int(pk), renderer.format, style=style, media_type=renderer.media_type
        )

    def handle_exception(self, exc):
        """Errors (a bad parameter, an unknown id) are JSON whatever format was asked for."""
        request = self.request
        if isinstance(getattr(request, "accepted_renderer", None), CitationRenderer):
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = JSONRenderer.media_type
        return super().handle_exception(exc)

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if getattr(self, "action", None) == "detail_view":
            patch_vary_headers(response, ["Accept"])
        return response
