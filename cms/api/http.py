"""How API responses go out: compact JSON, and the caching policy of a headless CMS.

- Browsers revalidate every time (`max-age=0, must-revalidate`; ETags and 304s, to GET and
  HEAD, come from cms.api.conditional_get), so the reader and the admin's "View live" show a
  publish at once.
- Shared caches keep a response for API_SHARED_CACHE_SECONDS (`s-maxage`) and are purged on
  change (cms.apicache.stale). `stale-while-revalidate` goes in `CDN-Cache-Control` (RFC 9213),
  which only CDNs read: in `Cache-Control` browsers would apply it too and show the old text once.
- A response that depends on who asks (a reader who passes a view restriction) is
  `private, no-cache`.
- Every response varies on `Accept-Language`: the API speaks the request's language.
- `Content-Language` names the language of the content sent (RFC 9110, 8.5): a page's own
  (a zh-hant page is zh-hant whoever asks), not the request's, which names only messages.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from functools import wraps

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponseBase, JsonResponse
from django.utils.cache import patch_vary_headers
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework.exceptions import MethodNotAllowed
from rest_framework.metadata import SimpleMetadata
from rest_framework.renderers import BrowsableAPIRenderer
from wagtail.api.v2.utils import BadRequestError

from cms.api.params import StrictQueryParametersMixin

CACHEABLE_STATUS = (200, 304)
# What every view under /api/ answers: the API only reads.
READ_METHODS = ("GET", "HEAD", "OPTIONS")


def add_cache_control(response: HttpResponseBase, *, private: bool = False) -> HttpResponseBase:
    patch_vary_headers(response, ["Accept-Language"])
    if response.status_code not in CACHEABLE_STATUS:
        return response
    if private:
        response["Cache-Control"] = "private, no-cache"
        return response
    shared = settings.API_SHARED_CACHE_SECONDS
    response["Cache-Control"] = f"public, max-age=0, must-revalidate, s-maxage={shared}"
    stale = settings.API_STALE_WHILE_REVALIDATE_SECONDS
    response["CDN-Cache-Control"] = f"public, max-age={shared}, stale-while-revalidate={stale}"
    return response


def method_not_allowed(request: HttpRequest) -> JsonResponse:
    """The API's 405: `Allow` and a JSON message, in DRF's words (and its translations), as the
    Wagtail viewsets answer it."""
    response = JsonResponse({"message": str(MethodNotAllowed(request.method).detail)}, status=405)
    response["Allow"] = ", ".join(READ_METHODS)
    return response


def read_only_api_view(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
    """For a plain Django view under /api/ (not a DRF viewset): it reads, and answers in JSON
    whatever the method, as the viewsets do.

    - Exempt from CSRF: the view never writes, so there is nothing to forge; with the check,
      Django answered a write (or `QUERY`) with its HTML 403 "CSRF cookie not set" before the
      view could refuse the method (DRF views are exempt for the same reason).
    - `OPTIONS` is a 200 naming the methods, a write a JSON 405 with `Allow`
      (`require_safe` answered both with an empty `text/html` 405).
    """

    @wraps(view)
    def answered(request: HttpRequest, *args, **kwargs) -> HttpResponseBase:
        if request.method == "OPTIONS":
            response = JsonResponse({"methods": list(READ_METHODS)})
            response["Allow"] = ", ".join(READ_METHODS)
            return response
        if request.method not in READ_METHODS:
            return method_not_allowed(request)
        return view(request, *args, **kwargs)

    return csrf_exempt(answered)


class CacheControlMixin:
    """For Wagtail API viewsets: the caching policy above on every response.

    A viewset whose answers may depend on who asks says so in `depends_on_requester()`.
    """

    def depends_on_requester(self) -> bool:
        return False

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        private = response.status_code in CACHEABLE_STATUS and self.depends_on_requester()
        return add_cache_control(response, private=private)


class AnsweredFormatsMetadata(SimpleMetadata):
    """DRF's answer to OPTIONS, naming the formats the view answers in (`get_renderers`), not
    every renderer class it was built with (DRF's: the browsable API's text/html in production)."""

    def determine_metadata(self, request, view):
        metadata = super().determine_metadata(request, view)
        metadata["renders"] = [renderer.media_type for renderer in view.get_renderers()]
        return metadata


class JSONBodyMixin:
    """For Wagtail API viewsets: how a body goes out.

    - Compact JSON unless the client asks for indentation. Wagtail pretty-prints every response
      (indent=4), which doubles its size and makes the json module fall back from its C encoder
      to the pure-Python one: a third of the time of a list request. A reader who wants it
      indented sends `Accept: application/json; indent=4`, which DRF's JSONRenderer honours.
    - Every error body is `{"message": ...}`, as Wagtail's own 400s and 404s are; DRF's (405
      for a POST, 406 for an Accept no renderer offers) say `detail`.
    - A `format` no renderer has is a 400 naming the formats there are (DRF: a bare 404).
    - Wagtail's own 400 and 404 messages stay English in every language: wagtail.api.v2 writes
      them without gettext. Matching its wordings here would be a second copy of them that a
      Wagtail release silently breaks; upstream would need gettext around those messages.
    - JSON only in production: Wagtail gives every API view DRF's browsable API too, an HTML
      page a browser's `Accept` picks, with forms and DRF's templates; it stays with DEBUG on,
      where a developer may want it.
    """

    metadata_class = AnsweredFormatsMetadata

    def get_renderers(self):
        renderers = super().get_renderers()
        if settings.DEBUG:
            return renderers
        return [
            renderer for renderer in renderers if not isinstance(renderer, BrowsableAPIRenderer)
        ]

    def perform_content_negotiation(self, request, force=False):
        try:
            return super().perform_content_negotiation(request, force)
        except Http404 as error:
            formats = sorted({renderer.format for renderer in self.get_renderers()})
            raise BadRequestError(
                _("format must be one of: %(formats)s") % {"formats": ", ".join(formats)}
            ) from error

    def get_renderer_context(self):
        context = super().get_renderer_context()
        context.pop("indent", None)
        return context

    def handle_exception(self, exc):
        response = super().handle_exception(exc)
        if isinstance(response.data, dict) and set(response.data) == {"detail"}:
            response.data = {"message": str(response.data["detail"])}
        return response


class ContentLanguageMixin:
    """For Wagtail API viewsets: `Content-Language` of a 200 names the languages its content
    is in, as `content_languages()` says; with none, Django's LocaleMiddleware names the
    request's language (that of error messages and of text translated for the request)."""

    def content_languages(self) -> Collection[str]:
        return ()

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        languages = self.content_languages() if response.status_code == 200 else ()
        if languages:
            response["Content-Language"] = ", ".join(sorted(languages))
        return response


class PublicAPIMixin(
    CacheControlMixin, ContentLanguageMixin, JSONBodyMixin, StrictQueryParametersMixin
):
    """For the public Wagtail API viewsets: the caching policy, the bodies and the query-string
    checks every endpoint shares."""
