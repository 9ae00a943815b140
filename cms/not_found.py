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


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    path = request.path_info
    if path.startswith(API_PATH_PREFIX):
        return JsonResponse({"message": _("not found: %(path)s") % {"path": path}}, status=404)
    if path.startswith(ADMIN_PATH_PREFIXES):
        return defaults.page_not_found(request, exception)
    from cms.reader.views import reader_not_found

    return reader_not_found(request)
