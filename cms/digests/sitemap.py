"""The sitemap of the reader's pages, with hreflang alternates, and robots.txt pointing at it.

Built on wagtail.contrib.sitemaps: `ReaderSitemap` lists every public page of the site in every
language (Wagtail's own lists the default site root's tree, which holds English pages only), and
each page model's `get_sitemap_urls` (SitemapAlternatesMixin) adds the page's public addresses
in each language, plus `x-default` (the English one), which Django's sitemap template writes as
`<xhtml:link rel="alternate" hreflang=…>`. Visibility is the public API's rule
(cms.api.visibility): drafts, private pages, unpublished translations and untranslated
placeholders are neither listed nor given as alternates.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.conf import settings
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from wagtail.contrib.sitemaps import Sitemap
from wagtail.models import Site

# cms.api.visibility is imported where it is used: the page models import this module
# before the app registry is ready, and visibility reads Wagtail's models.

# Where each request keeps its map of alternates (built once for the whole sitemap).
_ALTERNATES = "reader_sitemap_alternates"


def public_addresses(request: HttpRequest) -> dict[Any, dict[str, str]]:
    """Per translation key, the public full URL of each language version, read once a request."""
    from cms.api.visibility import public_pages

    cached = getattr(request, _ALTERNATES, None)
    if cached is None:
        cached = defaultdict(dict)
        pages = public_pages(request).filter(depth__gt=1).select_related("locale")
        for page in pages.defer_streamfields():
            cached[page.translation_key][page.locale.language_code] = page.get_full_url(request)
        setattr(request, _ALTERNATES, cached)
    return cached


def site_url(request: HttpRequest, path: str) -> str:
    """`path` on the address of the Wagtail site serving `request` (Site.root_url, as page URLs
    use), so the sitemap, robots.txt and feeds name the same host as the pages they list."""
    site = Site.find_for_request(request)
    if site is None:
        return request.build_absolute_uri(path)
    return site.root_url + path


class SitemapAlternatesMixin:
    """For the reader's page models: their sitemap entry names every language's address."""

    def get_sitemap_urls(self, request: HttpRequest | None = None) -> list[dict[str, Any]]:
        urls = super().get_sitemap_urls(request)
        if request is None:
            return urls
        by_language = public_addresses(request).get(self.translation_key, {})
        alternates = [
            {"lang_code": code, "location": by_language[code]}
            for code, _name in settings.LANGUAGES
            if code in by_language
        ]
        if settings.LANGUAGE_CODE in by_language:
            alternates.append(
                {"lang_code": "x-default", "location": by_language[settings.LANGUAGE_CODE]}
            )
        for url in urls:
            url["alternates"] = alternates if len(alternates) > 2 else []
        return urls


class ReaderSitemap(Sitemap):
    """Every public page of the requested site, in every language, in tree order."""

    def items(self) -> QuerySet:
        from cms.api.visibility import public_pages

        return (
            public_pages(self.request)
            .filter(depth__gt=1)
            .order_by("path")
            .defer_streamfields()
            .specific()
        )


@require_safe
@cache_control(public=True, max_age=3600)
def robots_txt(request: HttpRequest) -> HttpResponse:
    """Crawl the reader and the API it reads; not the admin or previews. Names the sitemap."""
    sitemap = site_url(request, reverse("sitemap"))
    lines = [
        "User-agent: *",
        "Disallow: /admin/",
        "Disallow: /preview/",
        f"Sitemap: {sitemap}",
    ]
    return HttpResponse("\n".join(lines) + "\n", content_type="text/plain; charset=utf-8")
