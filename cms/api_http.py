"""Cache-Control on API responses, from the API_CACHE_CONTROL setting.

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
