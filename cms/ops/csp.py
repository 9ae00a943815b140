"""Content-Security-Policy: strict everywhere, relaxed only as far as the Wagtail admin needs."""

from csp.middleware import CSPMiddleware, PolicyParts
from django.conf import settings
from django.http import HttpRequest, HttpResponseBase


class ContentSecurityPolicyMiddleware(CSPMiddleware):
    """django-csp's middleware, with ADMIN_CONTENT_SECURITY_POLICY under the admin prefixes.

    The API and the probes serve JSON and need nothing (`default-src 'none'`). The Wagtail 8 admin
    still runs inline scripts (InlinePanel, date widgets) and compiles templates with
    `new Function` in core.js, so its pages get a policy that allows those from the same origin.
    """

    def get_policy_parts(
        self, request: HttpRequest, response: HttpResponseBase, report_only: bool = False
    ) -> PolicyParts:
        parts = super().get_policy_parts(request, response, report_only)
        if not report_only and parts.config is None and self.is_admin(request):
            parts.config = settings.ADMIN_CONTENT_SECURITY_POLICY["DIRECTIVES"]
        return parts

    @staticmethod
    def is_admin(request: HttpRequest) -> bool:
        return request.path_info.startswith(tuple(settings.ADMIN_URL_PREFIXES))
