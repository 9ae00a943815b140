"""ETags and 304s for GET and HEAD alike.

Django's ConditionalGetMiddleware answers GET only, on the grounds that a HEAD response has no
body to hash. Here it does: Django maps HEAD to the view's GET (class-based views, DRF, the
feed and sitemap views), which builds the whole body, and only the server drops it on the way
out. So a HEAD response gets the ETag its GET would get, and a client revalidating with HEAD
gets a 304 when nothing changed. A HEAD response with an empty body gets no ETag (Django's
`set_response_etag` hashes only content), so none is ever made up.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.http import ConditionalGetMiddleware as DjangoConditionalGetMiddleware
from django.utils.cache import get_conditional_response, set_response_etag
from django.utils.http import parse_http_date_safe

CONDITIONAL_METHODS = ("GET", "HEAD")


class ConditionalGetMiddleware(DjangoConditionalGetMiddleware):
    """Django's middleware, for HEAD requests as well as GET."""

    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if request.method not in CONDITIONAL_METHODS:
            return response
        if self.needs_etag(response) and not response.has_header("ETag"):
            set_response_etag(response)
        etag = response.get("ETag")
        last_modified = parse_http_date_safe(response.get("Last-Modified", ""))
        if not (etag or last_modified):
            return response
        return get_conditional_response(
            request, etag=etag, last_modified=last_modified, response=response
        )
