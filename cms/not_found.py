"""Django's 404 handler: JSON under /api/, the reader's page (status 404) on the site's paths.

Wagtail's API views answer their own 404s in JSON, but a path its router does not match
(`/api/v2/pages/abc/`) never reaches them and got Django's HTML page. The admin keeps
Django's page.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults

API_PATH_PREFIX = "/api/"
ADMIN_PATH_PREFIXES = ("/admin/", "/documents/")


def api_not_found(request: HttpRequest, exception: Exception | None = None) -> JsonResponse:
    """A JSON 404 naming the path; also routed as the last pattern under /api/, so that with
    DEBUG on (where Django shows its technical page instead of handler404) it stays JSON."""
    message = _("not found: %(path)s") % {"path": request.path_info}
    return JsonResponse({"message": message}, status=404)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    path = request.path_info
    if path.startswith(API_PATH_PREFIX):
        return api_not_found(request, exception)
    if path.startswith(ADMIN_PATH_PREFIXES):
        return defaults.page_not_found(request, exception)
    from cms.reader.views import reader_not_found

    return reader_not_found(request)
