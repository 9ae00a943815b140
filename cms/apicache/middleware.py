"""Serve repeated public API requests from the cache until the content version changes.

A cached response is keyed on the content version (bumped by every write, cms.apicache.stale),
the request's language and its URL and `Vary` headers. The language is resolved from the request
alone (the language cookie, then `Accept-Language`; the same negotiation the view gets from
cms.reader.locale_middleware) before the lookup: the language active in the worker thread is
whatever its previous request left. The keying, Vary handling and header bookkeeping are
Django's own (django.utils.cache). When the cache does not answer, requests get fresh answers,
and nothing is stored (cms.apicache.version says why that is never stale afterwards either).
"""

from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import get_cache_key, learn_cache_key, set_response_etag

from .version import CACHE_DOWN, cache_went_down, current_content_version

NOT_CACHEABLE = ("private", "no-cache", "no-store")


def request_language(request: HttpRequest) -> str:
    """The language the API answers `request` in, read from the request only."""
    return translation.get_language_from_request(request, check_path=False)


def bytes_only(response: HttpResponse) -> HttpResponse:
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
        if not self.applies_to(request):
            return self.get_response(request)
        language = request_language(request)
        version = current_content_version()
        if version is None:  # the cache does not answer: a fresh answer, kept nowhere
            return self.get_response(request)
        key_prefix = f"api-response:{version}:{language}"
        try:
            cached = self.lookup(request, key_prefix, language)
        except CACHE_DOWN:
            cache_went_down()
            return self.get_response(request)
        if cached is not None:
            return cached
        response = self.get_response(request)
        if self.timeout and self.cacheable(response):
            if not response.has_header("ETag"):
                set_response_etag(response)  # stored with it, so hits need no hashing
            try:
                self.store(request, response, key_prefix, language)
            except CACHE_DOWN:
                cache_went_down()
        return response

    @staticmethod
    def lookup(request: HttpRequest, key_prefix: str, language: str) -> HttpResponse | None:
        # Django's keys also name the active language (with USE_I18N): make it this request's.
        with translation.override(language):
            cache_key = get_cache_key(request, key_prefix, "GET", cache=cache)
        return None if cache_key is None else cache.get(cache_key)

    def store(
        self, request: HttpRequest, response: HttpResponse, key_prefix: str, language: str
    ) -> None:
        with translation.override(language):
            cache_key = learn_cache_key(request, response, self.timeout, key_prefix, cache)
        cache.set(cache_key, bytes_only(response), self.timeout)

    def applies_to(self, request: HttpRequest) -> bool:
        """Anonymous reads of the API: a request with credentials or a session (a signed-in
        user, a reader who entered a page's password) may see more than anyone else."""
        return (
            request.method in ("GET", "HEAD")
            and request.path.startswith(self.path_prefix)
            and "Authorization" not in request.headers
            and settings.SESSION_COOKIE_NAME not in request.COOKIES
        )

    @staticmethod
    def cacheable(response: HttpResponse) -> bool:
        cache_control = response.get("Cache-Control", "").lower()
        return (
            response.status_code == 200
            and not response.streaming
            and not response.cookies
            and not any(directive in cache_control for directive in NOT_CACHEABLE)
            and "*" not in response.get("Vary", "")
        )
