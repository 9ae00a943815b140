"""Rate limits, counted in the shared cache with DRF's throttles: one table of rates.

Every rate is in `REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`, read per request (None switches a
limit off):

- `anon`: the public API, per client address (APIRateLimitMiddleware, ahead of the API cache);
- `feeds`: the Atom feeds and the sitemap, per client address (`rate_limited` in cms.urls);
- `password_reset_address` and `password_reset_account`: requests for a password reset e-mail,
  per client address and per e-mail address asked for, so that neither one address nor many
  can flood an account's mailbox (`rate_limited` on the admin's password reset form, POST only).

A refused request answers 429 with Retry-After, before the view runs (no e-mail is sent).
"""

import hashlib
import logging
import math
from collections.abc import Callable, Iterable
from functools import wraps

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from rest_framework.exceptions import Throttled
from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle

from cms.api.version import CACHE_DOWN

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


class AddressThrottle(AnonymousAPIThrottle):
    """The anonymous API throttle's counting, per client address, under another scope's rate."""

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()


class PasswordResetAccountThrottle(AnonymousAPIThrottle):
    """Counts password reset requests per e-mail address asked for, from any client address.

    Wagtail's form finds the accounts by that address ignoring case, so the count does too;
    the address is hashed into the cache key (cache keys must not hold arbitrary text). A
    request with no address is left to the form, which refuses it without sending anything.
    """

    scope = "password_reset_account"

    def get_cache_key(self, request: HttpRequest, view: object) -> str | None:
        email = request.POST.get("email", "").strip().casefold()
        if not email:
            return None
        digest = hashlib.sha256(email.encode()).hexdigest()
        return self.cache_format % {"scope": self.scope, "ident": digest}


def refusing_throttle(
    request: HttpRequest, throttles: Iterable[SimpleRateThrottle]
) -> SimpleRateThrottle | None:
    """The first of `throttles` over its limit for `request` (each one counts it), or None."""
    for throttle in throttles:
        try:
            allowed = throttle.allow_request(request, None)
        except CACHE_DOWN:  # a limit that cannot count lets readers through, not fail them
            logger.warning("the cache did not answer; %s rate limit not applied", throttle.scope)
            continue
        if not allowed:
            return throttle
    return None


def retry_after(throttle: SimpleRateThrottle) -> int | None:
    wait = throttle.wait()
    return math.ceil(wait) if wait is not None else None


def too_many_requests(message: str, seconds: int | None) -> HttpResponse:
    """A plain-text 429 saying when to try again, never cached."""
    response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
    if seconds is not None:
        response["Retry-After"] = str(seconds)
    response["Cache-Control"] = "no-store"
    return response


def feed_throttles() -> list[SimpleRateThrottle]:
    return [AddressThrottle("feeds")]


def password_reset_throttles() -> list[SimpleRateThrottle]:
    return [AddressThrottle("password_reset_address"), PasswordResetAccountThrottle()]


def rate_limited(
    view: Callable[..., HttpResponse],
    throttles: Callable[[], list[SimpleRateThrottle]],
    *,
    methods: tuple[str, ...] | None = None,
    message: Callable[[int | None], str] | None = None,
) -> Callable[..., HttpResponse]:
    """`view`, answering 429 to a request (of `methods`, default any) over one of `throttles`.

    `throttles` makes fresh throttle objects per request (they hold per-request state);
    `message` says, for the seconds to wait, why in the reader's language (default DRF's).
    """

    @wraps(view)
    def limited(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        if methods is None or request.method in methods:
            throttle = refusing_throttle(request, throttles())
            if throttle is not None:
                seconds = retry_after(throttle)
                text = message(seconds) if message else str(Throttled(seconds).detail)
                return too_many_requests(text, seconds)
        return view(request, *args, **kwargs)

    return limited


def password_reset_refusal(seconds: int | None) -> str:
    if seconds is None:
        return _("Too many password reset requests. Try again later.")
    minutes = max(1, math.ceil(seconds / 60))
    return ngettext(
        "Too many password reset requests. Try again in %(minutes)d minute.",
        "Too many password reset requests. Try again in %(minutes)d minutes.",
        minutes,
    ) % {"minutes": minutes}


class APIRateLimitMiddleware:
    """Answer 429 to a client over the API rate limit, before the API response cache.

    DRF checks throttles inside the view, which a cached answer never reaches, so a client
    repeating one URL would never be limited; running DRF's throttle here counts every request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info.startswith(API_PATH_PREFIX):
            throttle = refusing_throttle(request, [AnonymousAPIThrottle()])
            if throttle is not None:
                return self.throttled(throttle.wait())
        return self.get_response(request)

    @staticmethod
    def throttled(wait: float | None) -> HttpResponse:
        seconds = math.ceil(wait) if wait is not None else None
        # The API's error body (cms.api.http.JSONBodyMixin), in DRF's words.
        response = JsonResponse({"message": str(Throttled(seconds).detail)}, status=429)
        if seconds is not None:
            response["Retry-After"] = str(seconds)
        response["Cache-Control"] = "no-store"
        return response
