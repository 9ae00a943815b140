"""The API's own description: the shipped OpenAPI file at /api/v2/schema/ (YAML, or JSON on
request), and at /api/v2/ the address of each endpoint, for a front-end developer who starts
there."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from wagtail.api.utils import get_full_url

from cms.api.http import add_cache_control, read_only_api_view
from cms.api.params import repeated_parameter_message, unknown_parameters_message

SCHEMA_PATH = Path(__file__).with_name("openapi.yaml")
FORMATS = ("yaml", "json")
# The endpoints anyone may read (the preview's needs a token from the admin).
PUBLIC_ENDPOINTS = ("pages", "changes", "papers", "images", "documents")


@cache
def schema_text() -> str:
    return SCHEMA_PATH.read_text(encoding="utf-8")


@cache
def schema_dict() -> dict[str, Any]:
    return yaml.safe_load(schema_text())


def unknown_parameters(request: HttpRequest, known: set[str]) -> JsonResponse | None:
    """The 400 for a parameter these views do not take, or one given twice; else None."""
    message = unknown_parameters_message(request.GET, known)
    if message := message or repeated_parameter_message(request.GET):
        return JsonResponse({"message": message}, status=400)
    return None


@read_only_api_view
def api_root(request: HttpRequest) -> HttpResponse:
    """Where each endpoint and this API's description are."""
    if refused := unknown_parameters(request, set()):
        return refused
    addresses = {
        name: get_full_url(request, reverse(f"wagtailapi:{name}:listing"))
        for name in PUBLIC_ENDPOINTS
    }
    addresses["schema"] = get_full_url(request, reverse("api-schema"))
    return add_cache_control(JsonResponse(addresses))


@read_only_api_view
def openapi_schema(request: HttpRequest) -> HttpResponse:
    """The file as shipped; `?format=json` for tools that do not read YAML."""
    if refused := unknown_parameters(request, {"format"}):
        return refused
    output = request.GET.get("format", "yaml")
    if output not in FORMATS:
        return JsonResponse({"message": _("format must be yaml or json")}, status=400)
    if output == "json":
        response = JsonResponse(schema_dict(), json_dumps_params={"ensure_ascii": False})
    else:
        response = HttpResponse(schema_text(), content_type="application/yaml; charset=utf-8")
    return add_cache_control(response)
