"""Atom feeds of the newest digests, one per language: `/feed.atom` and `/zh-hant/feed.atom`.

Built on Django's syndication framework with its Atom 1.0 generator. The route sits in
`i18n_patterns`, so the address's language is the active one and picks the pages; only digests
the public API would show are listed (cms.api.visibility), so a draft, a private page, an
unpublished translation or an untranslated placeholder never reaches a feed. Each entry's
`updated` is the digest's last publication, `published` its first, so a republished digest
shows as updated.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.contrib.syndication.views import Feed
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.api.prefetch import PREFETCHED_PARENT, attach_public_parents
from cms.api.visibility import public_page_condition, public_rule
from cms.papers.citations import paper_url
from cms.papers.selectors import attach_paper_parts

from .models import DigestPage
from .sitemap import site_url

FEED_LENGTH = 50


class DigestAtomFeed(Atom1Feed):
    """Atom 1.0, plus a `related` link to each entry's paper (RFC 4287, section 4.2.7.2)."""

    def add_item_elements(self, handler, item):
        super().add_item_elements(handler, item)
        if item.get("paper_url"):
            handler.addQuickElement(
                "link",
                "",
                {"rel": "related", "href": item["paper_url"], "title": item["paper_title"]},
            )


class DigestFeed(Feed):
    """The newest published digests in the address's language."""

    feed_type = DigestAtomFeed  # xml:lang is the active language (Feed.language unset)
    title = gettext_lazy("Research digests")
    subtitle = gettext_lazy("The newest digests of networking and systems papers.")
    # Atom wants an author; the site speaks for its digests (editors' names stay private).
    author_name = gettext_lazy("Research digests")
    item_guid_is_permalink = False

    def get_object(self, request: HttpRequest, *args, **kwargs) -> HttpRequest:
        """The request is the feed's object: what it lists and links depends on who asks
        (site, view restrictions). One Feed instance serves every request, concurrently under
        threads, so nothing of a request is kept on `self`."""
        return request

    def link(self, request: HttpRequest) -> str:
        return site_url(request, reverse("wagtail_serve", args=[""]))

    def feed_url(self, request: HttpRequest) -> str:
        return site_url(request, reverse("digest_feed"))

    def items(self, request: HttpRequest) -> list[DigestPage]:
        language = translation.get_language()
        digests = list(
            DigestPage.objects.filter(
                public_page_condition(request), locale__language_code=language
            )
            .select_related("paper")
            .order_by("-first_published_at", "-pk")[:FEED_LENGTH]
        )
        attach_public_parents(digests, rule=public_rule(request))
        attach_paper_parts(digest.paper for digest in digests)  # for each paper's link
        for digest in digests:
            digest.feed_link = digest.get_full_url(request)
        return digests

    def item_title(self, item: DigestPage) -> str:
        return item.title

    def item_description(self, item: DigestPage) -> str:
        """The summary and the paper, as HTML (Django's Atom summaries are `type="html"`)."""
        summary = format_html("<p>{}</p>", item.summary)
        if item.paper is None:
            return summary
        paper = _("Paper: %(title)s (%(venue)s %(year)s)") % {
            "title": item.paper.title,
            "venue": item.paper.venue,
            "year": item.paper.year,
        }
        return summary + format_html("<p>{}</p>", paper)

    def item_link(self, item: DigestPage) -> str:
        return item.feed_link

    def item_guid(self, item: DigestPage) -> str:
        # Stable across slug changes and distinct per language (both share a translation key).
        return uuid.uuid5(item.translation_key, translation.get_language()).urn

    def item_pubdate(self, item: DigestPage) -> datetime | None:
        return item.first_published_at

    def item_updateddate(self, item: DigestPage) -> datetime | None:
        return item.last_published_at

    def item_categories(self, item: DigestPage) -> list[str]:
        topic = getattr(item, PREFETCHED_PARENT, None)
        categories = [topic.title] if topic is not None else []
        if item.paper is not None:
            categories.append(item.paper.venue)
        return categories

    def item_extra_kwargs(self, item: DigestPage) -> dict[str, str | None]:
        if item.paper is None:
            return {}
        return {"paper_url": paper_url(item.paper), "paper_title": item.paper.title}
