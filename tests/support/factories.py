"""Factories for the pages and papers tests make, instead of building each one by hand.

Pages are added under `parent=` through Wagtail's tree API, as an editor's would be; with no
slug given, Wagtail makes one from the title on save (unique among the siblings), as it does
for a page built by hand. `revision=` saves the first revision the way the admin does.
"""

from __future__ import annotations

import factory
import wagtail_factories
from django.utils.text import slugify
from factory.django import DjangoModelFactory

from cms.digests.models import DigestIndexPage, DigestPage, TopicPage
from cms.papers.models import Paper, PaperAuthor

DRAFT = "draft"
PUBLISHED = "published"


class _RevisionedPageFactory(wagtail_factories.PageFactory):
    """A page, then optionally its revision: `revision=DRAFT` saves one, `revision=PUBLISHED`
    publishes it. `revision__user=` is its author; any other `revision__<field>=` is an edit
    made in that revision only (the row keeps the built value until the revision is published,
    as when an editor changes a page already added)."""

    slug = ""

    class Meta:
        abstract = True
        skip_postgeneration_save = True  # a save after the hooks would write the draft's edits

    @factory.post_generation
    def revision(page, create, extracted, **changes):
        if not create or not extracted:
            return
        if extracted not in (DRAFT, PUBLISHED):
            raise ValueError(f"revision={extracted!r}: use DRAFT or PUBLISHED")
        user = changes.pop("user", None)
        for name, value in changes.items():
            setattr(page, name, value)
        saved = page.save_revision(user=user)
        if extracted == PUBLISHED:
            saved.publish()


class DigestIndexPageFactory(_RevisionedPageFactory):
    title = "Research digests"

    class Meta:
        model = DigestIndexPage


class TopicPageFactory(_RevisionedPageFactory):
    title = factory.Sequence(lambda n: f"Topic {n}")

    class Meta:
        model = TopicPage


class DigestPageFactory(_RevisionedPageFactory):
    title = factory.Sequence(lambda n: f"Digest {n}")
    short_name = factory.LazyAttribute(lambda page: page.title[:100])
    reading_minutes = 3
    summary = "A summary."

    class Meta:
        model = DigestPage


class PaperFactory(DjangoModelFactory):
    title = factory.Sequence(lambda n: f"Paper {n}")
    venue = "NSDI"
    year = 2024

    class Meta:
        model = Paper


class PaperAuthorFactory(DjangoModelFactory):
    paper = factory.SubFactory(PaperFactory)
    name = factory.Sequence(lambda n: f"Author {n}")
    sort_order = 0

    class Meta:
        model = PaperAuthor


def add_draft_digest(
    topic: TopicPage, title: str, *, short_name: str = "", summary: str = "A summary."
) -> DigestPage:
    """A never-published digest under `topic` with one revision, as an autosaved draft is;
    its slug is made from `title` as the admin's form makes it."""
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
