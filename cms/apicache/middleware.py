"""Serve repeated public API requests from the cache until the content version changes.

A cached response is kept under a key made of its URL and of what in the request's varied
headers can change it (`response_key`), and holds the content version it was built under
(bumped by every write, cms.apicache.stale): a hit is one round trip to the cache that reads the
version and the entry together, and an entry of an earlier version is a miss. Django's cache
middleware keys on whole header values and needs three round trips (the version, the URL's
learned Vary headers, the response), which on Redis cost more than the rest of a hit; so the
Vary list is fixed here, and a response that varies on any other header is not stored.

Keyed on the headers' effect, not their values: every browser and HTTP library sends its own
`Accept`, and every visitor of a front end its own cookies, which would give each one an entry
of its own and the cache no hits.

The language is resolved from the request alone (the language cookie, then `Accept-Language`;
the same negotiation the view gets from cms.reader.locale_middleware) before the lookup: the
language active in the worker thread is whatever its previous request left. When the cache
does not answer, requests get fresh answers and nothing is stored (cms.api.version says
why that is never stale afterwards either).
"""

import hashlib
from collections.abc import Callable
from functools import cache

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import set_response_etag
from django.utils.http import parse_header_parameters
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.utils.mediatypes import media_type_matches, order_by_precedence

from cms.api.version import read_with_version, store_with_version

NOT_CACHEABLE = ("private", "no-cache", "no-store")
# The request headers API responses vary on: DRF's Accept, the API's Accept-Language,
# sessions' Cookie, CORS's Origin. What each of them is keyed as is `response_key`'s.
KNOWN_VARY = {"accept", "accept-language", "cookie", "origin"}


@cache
def rendered_media_types() -> tuple[str, ...]:
    """Media types an API view may answer in beside the browsable API: JSON and the papers'
    citations (cms.papers.cite). A renderer added elsewhere must be named here, or an Accept
    naming only it would share the JSON's entry."""
    from rest_framework.renderers import JSONRenderer

    from cms.papers.cite import NEGOTIATED_FORMATS

    return (JSONRenderer.media_type, *NEGOTIATED_FORMATS)


def answered_media_types() -> tuple[str, ...]:
    """Every media type an API view answers in: with DEBUG on, the browsable API's HTML too
    (cms.api.http.JSONBodyMixin), which a browser's `text/html` picks."""
    from rest_framework.renderers import BrowsableAPIRenderer

    browsable = (BrowsableAPIRenderer.media_type,) if settings.DEBUG else ()
    return rendered_media_types() + browsable


def accept_key(request: HttpRequest) -> str:
    """What of `Accept` can change the renderer DRF picks, or its parameters (`indent`, a
    citation's `style`): the media types some view answers (not image/webp, application/xml),
    by DRF's precedence, whose order within one precedence and q-values DRF does not read."""
    kept = set()
    for token in DefaultContentNegotiation().get_accept_list(request):
        if not any(media_type_matches(answered, token) for answered in answered_media_types()):
            continue
        media_type, params = parse_header_parameters(token)
        params.pop("q", None)
        kept.add(";".join([media_type, *(f"{k}={v}" for k, v in sorted(params.items()))]))
    return "|".join(",".join(sorted(level)) for level in order_by_precedence(kept))


def response_key(request: HttpRequest, language: str) -> str:
    """One key per URL, language and `accept_key` (GET and HEAD share it).

    - Accept-Language and the language cookie count as the `language` they resolve to.
    - Cookie counts for nothing else: a session (which may see more) skips the cache.
    - Origin counts for nothing: the CORS headers are added outside this cache, by
      corsheaders' middleware, to every answer, stored or not, for the request's own origin.
    """
    parts = [request.build_absolute_uri(), language, accept_key(request)]
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
