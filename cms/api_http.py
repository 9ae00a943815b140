"""How API responses go out: compact JSON, and Cache-Control from the API_CACHE_CONTROL setting.

ETags and 304s on If-None-Match come from Django's ConditionalGetMiddleware (see MIDDLEWARE);
this only says how long browsers and shared caches may keep a successful response.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponseBase

CACHEABLE_STATUS = (200, 304)


def add_cache_control(response: HttpResponseBase) -> HttpResponseBase:
    cache_control = getattr(settings, "API_CACHE_CONTROL", "")
    if cache_control and response.status_code in CACHEABLE_STATUS:
        response["Cache-Control"] = cache_control
    return response


class CacheControlMixin:
    """For Wagtail API viewsets: API_CACHE_CONTROL on every successful response."""

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        return add_cache_control(response)


class CompactJSONMixin:
    """For Wagtail API viewsets: compact JSON unless the client asks for indentation.

    Wagtail pretty-prints every response (indent=4), which doubles its size and makes the json
    module fall back from its C encoder to the pure-Python one: a third of the time of a list
    request. A reader who wants it indented sends `Accept: application/json; indent=4`, which
    DRF's JSONRenderer honours.
    """

    def get_renderer_context(self):
        context = super().get_renderer_context()
        context.pop("indent", None)
        return context
