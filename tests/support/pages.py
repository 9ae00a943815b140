"""Pages the tests make the way an editor would, through Wagtail's tree API."""

from __future__ import annotations

from cms.digests.models import DigestPage, TopicPage
from tests.support.factories import DRAFT, DigestPageFactory


def add_draft_digest(
    topic: TopicPage, title: str, *, short_name: str = "", summary: str = "A summary."
) -> DigestPage:
    """A never-published digest under `topic` with one revision, as an autosaved draft is;
    its slug is made from `title` as the admin's form makes it."""
    from django.utils.text import slugify

    return DigestPageFactory(
        parent=topic,
        title=title,
        slug=slugify(title),
        short_name=short_name or title,
        reading_minutes=3,
        summary=summary,
        live=False,
        revision=DRAFT,
    )
