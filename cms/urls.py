"""URL map: admin, headless API, documents and the preview, then the reader's pages last.

The reader's pages sit in `i18n_patterns` without a prefix for the default language, so English
pages are at `/<topic>/<digest>/` and Traditional Chinese ones at `/zh-hant/<topic>/<digest>/`:
Wagtail reverses `wagtail_serve` in each page's own language, which gives the API's `html_url`,
`Page.url` and the admin's "View live" the right address per language. Everything above them
keeps one unprefixed address (cms.reader.locale_middleware decides their language).
"""

from functools import wraps

from django.conf import settings
from django.conf.urls.i18n import i18n_patterns
from django.urls import include, path, re_path
from django.views.decorators.cache import cache_control
from wagtail.admin import urls as wagtailadmin_urls
from wagtail.admin.views.account import PasswordResetView
from wagtail.contrib.sitemaps.views import sitemap
from wagtail.documents import urls as wagtaildocs_urls

from cms.api import errors
from cms.api.router import build_api_router
from cms.api.schema import api_root, openapi_schema
from cms.api.visibility import private_for_who_sees_more
from cms.digests.feeds import DigestFeed
from cms.digests.sitemap import ReaderSitemap, robots_txt
from cms.ops.throttling import (
    feed_throttles,
    password_reset_refusal,
    password_reset_throttles,
    rate_limited,
)
from cms.reader.views import page_not_found, preview_shell


def revalidated_by_content(view):
    """`view` without the Last-Modified header Django's feed and sitemap views set from their
    newest item. Removing an item (an unpublished digest) does not move that date, so a client
    asking If-Modified-Since would keep the removed entry; the ETag that
    cms.api.conditional_get takes from the content changes with any change."""

    @wraps(view)
    def without_last_modified(request, *args, **kwargs):
        response = view(request, *args, **kwargs)
        del response["Last-Modified"]
        return response

    return without_last_modified


# JSON under /api/, the reader's page or Django's elsewhere (cms/api/errors.py).
handler400 = errors.bad_request
handler403 = errors.permission_denied
handler404 = page_not_found
handler500 = errors.server_error

# Every app's endpoints: they register through the `register_api_endpoint` hook.
api_router = build_api_router()

urlpatterns = [
    # Wagtail's password reset form at its own address, limited (cms.ops.throttling): it sends
    # an e-mail to whatever address is typed in, for anyone.
    path(
        "admin/password_reset/",
        rate_limited(
            PasswordResetView.as_view(),
            password_reset_throttles,
            methods=("POST",),
            message=password_reset_refusal,
        ),
    ),
    path("admin/", include(wagtailadmin_urls)),
    path("documents/", include(wagtaildocs_urls)),
    path("api/v2/", api_root, name="api-root"),
    path("api/v2/schema/", openapi_schema, name="api-schema"),
    path("api/v2/", api_router.urls),
    re_path(r"^api/", errors.api_not_found),  # JSON, with DEBUG on too
    # The admin's headless preview frame: the draft says which language it is in.
    path("preview/", preview_shell, name="reader_preview"),
    # One sitemap for both languages: each page names its other language's address.
    path(
        "sitemap.xml",
        rate_limited(
            private_for_who_sees_more(
                cache_control(public=True, max_age=3600)(revalidated_by_content(sitemap))
            ),
            feed_throttles,
        ),
        {"sitemaps": {"pages": ReaderSitemap}},
        name="sitemap",
    ),
    path("robots.txt", robots_txt, name="robots_txt"),
]

if settings.DEBUG:
    from django.conf.urls.static import static
    from django.contrib.staticfiles.urls import staticfiles_urlpatterns

    urlpatterns += staticfiles_urlpatterns()
    urlpatterns += static(settings.MEDIA_URL, document_root=settings.MEDIA_ROOT)

urlpatterns += i18n_patterns(
    path(
        "feed.atom",
        rate_limited(
            private_for_who_sees_more(
                cache_control(public=True, max_age=300)(revalidated_by_content(DigestFeed()))
            ),
            feed_throttles,
        ),
        name="digest_feed",
    ),
    path("", include("cms.reader.urls")),
    prefix_default_language=False,
)
