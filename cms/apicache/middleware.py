"""Serve repeated public API requests from the cache until the content version changes.

Django's UpdateCacheMiddleware/FetchFromCacheMiddleware take one key prefix for the life of the
process; here the prefix is the content version, read once per request so that a response
computed before a publish can never be stored under the version that follows it. The keying,
Vary handling and header bookkeeping are Django's own (django.utils.cache).
"""

from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.cache import get_cache_key, learn_cache_key, set_response_etag

from .version import current_content_version

NOT_CACHEABLE = ("private", "no-cache", "no-store")


def _bytes_only(response: HttpResponse) -> HttpResponse:
    """A copy holding only status, headers and body: a DRF Response also pickles its `.data`,
    which made loading it from the cache cost more than the rest of a cache hit together."""
    copy = HttpResponse(response.content, status=response.status_code)
    for name, value in response.items():
        copy[name] = value
    return copy


class APIResponseCacheMiddleware:
    """Cache successful anonymous GET/HEAD responses under settings.API_RESPONSE_CACHE_PREFIX."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response
        self.path_prefix = settings.API_RESPONSE_CACHE_PREFIX
        self.timeout = settings.API_RESPONSE_CACHE_SECONDS

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not self._applies_to(request):
            return self.get_response(request)
        key_prefix = f"api-response:{current_content_version()}"
        cache_key = get_cache_key(request, key_prefix, "GET", cache=cache)
        if cache_key is not None:
            response = cache.get(cache_key)
            if response is not None:
                return response
        response = self.get_response(request)
        if self._cacheable(response):
            if not response.has_header("ETag"):
                set_response_etag(response)  # stored with it, so hits need no hashing
            cache_key = learn_cache_key(request, response, self.timeout, key_prefix, cache=cache)
            cache.set(cache_key, _bytes_only(response), self.timeout)
        return response

    def _applies_to(self, request: HttpRequest) -> bool:
        return (
            request.method in ("GET", "HEAD")
            and request.path.startswith(self.path_prefix)
            and "Authorization" not in request.headers
        )

    @staticmethod
    def _cacheable(response: HttpResponse) -> bool:
        cache_control = response.get("Cache-Control", "").lower()
        return (
            response.status_code == 200
            and not response.streaming
            and not response.cookies
            and not any(directive in cache_control for directive in NOT_CACHEABLE)
            and "*" not in response.get("Vary", "")
        )
