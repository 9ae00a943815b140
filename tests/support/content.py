"""The seeded pages by name, the pages API's address and types, and one hidden page
of each kind: shared by the API, digests, seed and papers tests."""

from __future__ import annotations

from wagtail.models import Locale, PageViewRestriction

from cms.digests.models import DigestPage, TopicPage
from tests.support.factories import PUBLISHED, DigestPageFactory

PAGES_URL = "/api/v2/pages/"

DIGEST_TYPE = "digests.DigestPage"

TOPIC_TYPE = "digests.TopicPage"


def digest(short_name: str, language: str = "en") -> DigestPage:
    return DigestPage.objects.get(short_name=short_name, locale__language_code=language)


def translation(page, language: str):
    return page.get_translation(Locale.objects.get(language_code=language)).specific


def topic_of(page) -> TopicPage:
    return page.get_parent().specific


def hide_one_of_each_kind() -> None:
    """A draft change, an unpublished and a private digest, a private topic, a live digest
    below an unpublished topic, a placeholder, and an alias in its own language (visible)."""
    topics = list(topic_of(digest("Odin")).get_siblings().live().specific())
    first, second, third, fourth = topics[:4]
    drafted = first.get_children().specific().first()
    drafted.title = "Leaked draft title"
    drafted.save_revision()
    unpublished, private = second.get_children().specific()[:2]
    unpublished.unpublish()
    PageViewRestriction.objects.create(
        page=private, restriction_type=PageViewRestriction.PASSWORD, password="secret"
    )
    PageViewRestriction.objects.create(page=third, restriction_type=PageViewRestriction.LOGIN)
    fourth.unpublish()
    solo = DigestPageFactory(
        parent=first,
        title="Only in English",
        short_name="Solo",
        reading_minutes=4,
        summary="x",
        revision=PUBLISHED,
    )
    solo.create_alias(
        parent=translation(first, "zh-hant"),
        update_locale=Locale.objects.get(language_code="zh-hant"),
    )
    digest("Odin").create_alias(parent=second, update_slug="odin-again")
