"""Atom feeds of the newest digests, one per language: `/feed.atom` and `/zh-hant/feed.atom`.

Built on Django's syndication framework with its Atom 1.0 generator. The route sits in
`i18n_patterns`, so the address's language is the active one and picks the pages; only digests
the public API would show are listed (cms.api.visibility), so a draft, a private page, an
unpublished translation or an untranslated placeholder never reaches a feed. Each entry's
`updated` is the digest's last publication, `published` its first, so a republished digest
shows as updated.

An entry whose paper was retracted, corrected or put under an expression of concern says so
(cms.papers.notice_types): its title is prefixed, its summary links the notice, it gets the
standing as a category, and it shows as updated when the notice was first seen.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from django.contrib.syndication.views import Feed
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation
from django.utils.feedgenerator import Atom1Feed
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.api.prefetch import PREFETCHED_PARENT, attach_public_parents
from cms.api.visibility import public_page_condition, public_rule
from cms.papers import notice_types
from cms.papers.citations import paper_url
from cms.papers.parts import paper_parts
from cms.papers.selectors import attach_paper_parts

from .models import DigestPage
from .sitemap import site_url

FEED_LENGTH = 50

# Per standing (cms.papers.notice_types): the title's prefix, the category, and the sentence
# that opens the summary's paragraph on the notices.
TITLE_PREFIXES = {
    notice_types.RETRACTED: gettext_lazy("[Retracted] %(title)s"),
    notice_types.CONCERN: gettext_lazy("[Expression of concern] %(title)s"),
    notice_types.CORRECTED: gettext_lazy("[Corrected] %(title)s"),
}
CATEGORIES = {
    notice_types.RETRACTED: gettext_lazy("Retracted"),
    notice_types.CONCERN: gettext_lazy("Expression of concern"),
    notice_types.CORRECTED: gettext_lazy("Corrected"),
}
STANDING_SENTENCES = {
    notice_types.RETRACTED: gettext_lazy("This paper has been retracted."),
    notice_types.CONCERN: gettext_lazy("The publisher has issued an expression of concern."),
    notice_types.CORRECTED: gettext_lazy("This paper has been corrected."),
}


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
        standing = paper_standing(item)
        if standing is None:
            return item.title
        return TITLE_PREFIXES[standing] % {"title": item.title}

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
        return summary + format_html("<p>{}</p>", paper) + notices_paragraph(item)

    def item_link(self, item: DigestPage) -> str:
        return item.feed_link

    def item_guid(self, item: DigestPage) -> str:
        # Stable across slug changes and distinct per language (both share a translation key).
        return uuid.uuid5(item.translation_key, translation.get_language()).urn

    def item_pubdate(self, item: DigestPage) -> datetime | None:
        return item.first_published_at

    def item_updateddate(self, item: DigestPage) -> datetime | None:
        """The last publication, or the first sight of a notice if later: feed readers show
        an updated entry again."""
        seen = paper_parts(item.paper).notices_seen_at if item.paper is not None else None
        if seen is None or item.last_published_at is None:
            return item.last_published_at or seen
        return max(seen, item.last_published_at)

    def item_categories(self, item: DigestPage) -> list[str]:
        topic = getattr(item, PREFETCHED_PARENT, None)
        categories = [topic.title] if topic is not None else []
        if item.paper is not None:
            categories.append(item.paper.venue)
        standing = paper_standing(item)
        if standing is not None:
            categories.append(str(CATEGORIES[standing]))
        return categories

    def item_extra_kwargs(self, item: DigestPage) -> dict[str, str | None]:
        if item.paper is None:
            return {}
        return {"paper_url": paper_url(item.paper), "paper_title": item.paper.title}


def marking_notices(item: DigestPage) -> list[dict]:
    """The notices of the digest's paper that mark it, most serious first."""
    if item.paper is None:
        return []
    notices = notice_types.by_seriousness(paper_parts(item.paper).notices)
    return [notice for notice in notices if notice_types.standing_of(notice["type"])]


def paper_standing(item: DigestPage) -> str | None:
    """Retracted, under concern or corrected: the most serious of the paper's notices."""
    notices = marking_notices(item)
    return notice_types.standing_of(notices[0]["type"]) if notices else None


def notices_paragraph(item: DigestPage) -> str:
    """`<p>This paper has been retracted. <a href="https://doi.org/…">Retraction (2010-02-06)</a>
    ...</p>`: the standing, and a link to each notice that has an address."""
    notices = marking_notices(item)
    if not notices:
        return ""
    standing = notice_types.standing_of(notices[0]["type"])
    links = [
        (notice_types.notice_url(n["doi"]), notice_link_text(n))
        for n in notices
        if notice_types.notice_url(n["doi"])
    ]
    return format_html(
        "<p>{}{}</p>",
        STANDING_SENTENCES[standing],
        format_html_join("", ' <a href="{}">{}</a>', links),
    )


def notice_link_text(notice: dict) -> str:
    if notice["date"]:
        return _("Read the notice (%(date)s)") % {"date": notice["date"]}
    return _("Read the notice")
