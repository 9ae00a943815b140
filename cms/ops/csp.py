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
        # Wagtail renders a preview by sending a dummy request for the page's public URL through
        # the middleware (`is_dummy`); the admin's preview view serves what it returns, so it
        # gets the admin's policy (wagtail-headless-preview's frame page has inline styles).
        return getattr(request, "is_dummy", False) or request.path_info.startswith(
            tuple(settings.ADMIN_URL_PREFIXES)
        )
