"""Serve repeated public API requests from the cache until the content version changes.

A cached response is kept under a key made of its URL, the request's language and the request
headers the API's responses vary on (`VARIED_HEADERS`), and holds the content version it was
built under (bumped by every write, cms.apicache.stale): a hit is one round trip to the cache
that reads the version and the entry together, and an entry of an earlier version is a miss.
Django's cache middleware keys the same things but needs three round trips (the version, the
URL's learned Vary headers, the response), which on Redis cost more than the rest of a hit; so
the Vary list is fixed here, and a response that varies on any other header is not stored.

The language is resolved from the request alone (the language cookie, then `Accept-Language`;
the same negotiation the view gets from cms.reader.locale_middleware) before the lookup: the
language active in the worker thread is whatever its previous request left. When the cache
does not answer, requests get fresh answers and nothing is stored (cms.apicache.version says
why that is never stale afterwards either).
"""

import hashlib
from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import set_response_etag

from .version import read_with_version, store_with_version

NOT_CACHEABLE = ("private", "no-cache", "no-store")
# The request headers API responses vary on (DRF: Accept; the API: Accept-Language; sessions:
# Cookie; CORS: Origin). Accept-Language is keyed as the language it resolves to.
VARIED_HEADERS = ("Accept", "Cookie", "Origin")
KNOWN_VARY = {"accept", "accept-language", "cookie", "origin"}


def response_key(request: HttpRequest, language: str) -> str:
    """One key per URL, language and value of each varied header (GET and HEAD share it)."""
    parts = [request.build_absolute_uri(), language]
    parts += [request.headers.get(header, "") for header in VARIED_HEADERS]
    return "api-response:" + hashlib.sha256("\n".join(parts).encode()).hexdigest()


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

    def __call__(self, request: HttpRequest) -> HttpResponse:
        timeout = settings.API_RESPONSE_CACHE_SECONDS
        if not timeout or not self.applies_to(request):
            return self.get_response(request)
        language = translation.get_language_from_request(request, check_path=False)
        key = response_key(request, language)
        version, found = read_with_version([key])
        if version is None:  # the cache does not answer: a fresh answer, kept nowhere
            return self.get_response(request)
        if key in found:
            return found[key]
        response = self.get_response(request)
        if self.cacheable(response):
            if not response.has_header("ETag"):
                set_response_etag(response)  # stored with it, so hits need no hashing
            store_with_version(key, version, bytes_only(response), timeout)
        return response

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
        varies_on = {header.strip().lower() for header in response.get("Vary", "").split(",")}
        return (
            response.status_code == 200
            and not response.streaming
            and not response.cookies
            and not any(directive in cache_control for directive in NOT_CACHEABLE)
            and varies_on - {""} <= KNOWN_VARY
        )
