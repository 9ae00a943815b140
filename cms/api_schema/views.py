"""Serves the shipped OpenAPI description at /api/v2/schema/ (YAML, or JSON on request)."""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_safe

from cms.api_http import add_cache_control

SCHEMA_PATH = Path(__file__).with_name("openapi.yaml")
FORMATS = ("yaml", "json")


@cache
def schema_text() -> str:
    return SCHEMA_PATH.read_text(encoding="utf-8")


@cache
def schema_dict() -> dict[str, Any]:
    return yaml.safe_load(schema_text())


@require_safe
def openapi_schema(request: HttpRequest) -> HttpResponse:
    """The file as shipped; `?format=json` for tools that do not read YAML."""
    unknown = sorted(set(request.GET) - {"format"})
    if unknown:
        return JsonResponse(
            {"message": _("unknown query parameter: %(names)s") % {"names": ", ".join(unknown)}},
            status=400,
        )
    output = request.GET.get("format", "yaml")
    if output not in FORMATS:
        return JsonResponse({"message": _("format must be yaml or json")}, status=400)
    if output == "json":
        response = JsonResponse(schema_dict(), json_dumps_params={"ensure_ascii": False})
    else:
        response = HttpResponse(schema_text(), content_type="application/yaml; charset=utf-8")
    return add_cache_control(response)
