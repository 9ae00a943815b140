"""Django's 404 handler: JSON under /api/, the reader's page (status 404) on the site's paths.

Wagtail's API views answer their own 404s in JSON, but a path its router does not match
(`/api/v2/pages/abc/`) never reaches them and got Django's HTML page. The admin keeps
Django's page.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views import defaults

API_PATH_PREFIX = "/api/"
ADMIN_PATH_PREFIXES = ("/admin/", "/documents/")


def api_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """A JSON 404 naming the path; also routed as the last pattern under /api/, so that with
    DEBUG on (where Django shows its technical page instead of handler404) it stays JSON."""
    if redirect := redirect_with_slash(request):
        return redirect
    message = _("not found: %(path)s") % {"path": request.path_info}
    return JsonResponse({"message": message}, status=404)


def redirect_with_slash(request: HttpRequest) -> HttpResponse | None:
    """A read of an API address without its trailing slash (`/api/v2/pages?type=...`) goes to
    the address with it, query kept: Django's APPEND_SLASH, which never sees these paths since
    the last /api/ pattern matches them all. None when the slash names nothing either."""
    path = request.path_info
    if not settings.APPEND_SLASH or request.method not in ("GET", "HEAD") or path.endswith("/"):
        return None
    try:
        match = resolve(path + "/", getattr(request, "urlconf", None))
    except Resolver404:
        return None
    if match.func is api_not_found:
        return None
    return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    path = request.path_info
    if path.startswith(API_PATH_PREFIX):
        return api_not_found(request, exception)
    if path.startswith(ADMIN_PATH_PREFIXES):
        return defaults.page_not_found(request, exception)
    from cms.reader.views import reader_not_found

    return reader_not_found(request)
