"""Django's error handlers: JSON under /api/, Django's pages elsewhere (the reader's 404 is
cms.reader.views.page_not_found).

Wagtail's API views answer their own 404s in JSON, but a path its router does not match
(`/api/v2/pages/abc/`) never reaches them and got Django's HTML page. The same holds for
every error Django answers itself (a 400 for a bad Host, a 403 from the CSRF check, a 500):
under /api/ each is `{"message": ...}` with its status, as the API's own errors are. The admin
keeps Django's pages.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _
from django.views import csrf, defaults
from django.views.decorators.csrf import csrf_exempt

API_PATH_PREFIX = "/api/"


@csrf_exempt  # a 404 whatever the method, not the CSRF check's 403
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


def api_error(request: HttpRequest, message: str, status: int) -> HttpResponse | None:
    """`{"message": ...}` with `status` for a path under /api/; None elsewhere."""
    if not request.path_info.startswith(API_PATH_PREFIX):
        return None
    return JsonResponse({"message": message}, status=status)


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    refused = api_error(request, _("bad request"), 400)
    return refused or defaults.bad_request(request, exception)


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    refused = api_error(request, _("permission denied"), 403)
    return refused or defaults.permission_denied(request, exception)


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """CSRF_FAILURE_VIEW. No view under /api/ takes a write, so none should reach this; should
    a new one forget `cms.api.http.read_only_api_view`, its refusal is still JSON."""
    refused = api_error(request, _("permission denied"), 403)
    return refused or csrf.csrf_failure(request, reason)


def server_error(request: HttpRequest) -> HttpResponse:
    refused = api_error(request, _("server error"), 500)
    return refused or defaults.server_error(request)
