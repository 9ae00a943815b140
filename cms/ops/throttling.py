"""Rate limits for anonymous API clients, counted per client address in the shared cache."""

import logging
import math
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle

from cms.apicache.version import CACHE_DOWN

from .client_address import client_address

API_PATH_PREFIX = "/api/"
logger = logging.getLogger(__name__)


class AnonymousAPIThrottle(AnonRateThrottle):
    """DRF's anonymous throttle: its rate syntax, client address and sliding window.

    Rates are read per request (DRF binds them at import) so a deployment, and the tests, can
    change `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["anon"]`; None switches the limit off.
    Every request is counted by address: the middleware below runs before authentication, and a
    credential the client merely claims must not buy it a bigger budget. The address is the
    one the login lockout uses too (cms.ops.client_address), never a header the client sets.
    """

    def get_ident(self, request: HttpRequest) -> str:
        return client_address(request)

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_cache_key(self, request: HttpRequest, view: object) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class APIRateLimitMiddleware:
    """Answer 429 to a client over the API rate limit, before the API response cache.

    DRF checks throttles inside the view, which a cached answer never reaches, so a client
    repeating one URL would never be limited; running DRF's throttle here counts every request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(API_PATH_PREFIX):
            throttle = AnonymousAPIThrottle()
            try:
                allowed = throttle.allow_request(request, None)
            except CACHE_DOWN:  # a limit that cannot count lets readers through, not fail them
                logger.warning("the cache did not answer; API rate limit not applied")
                allowed = True
            if not allowed:
                return self.throttled(throttle.wait())
        return self.get_response(request)

    @staticmethod
    def throttled(wait: float | None) -> HttpResponse:
        seconds = math.ceil(wait) if wait is not None else None
        # The API's error body (cms.api_http.JSONBodyMixin), in DRF's words.
        response = JsonResponse({"message": str(Throttled(seconds).detail)}, status=429)
        if seconds is not None:
            response["Retry-After"] = str(seconds)
        response["Cache-Control"] = "no-store"
        return response
