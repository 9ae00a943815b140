"""Fixtures of the digests tests: the pages API's helpers, and an editable copy of the seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from wagtail.models import Locale, PageViewRestriction

from cms.digests.models import DigestPage, TopicPage
from tests.support.factories import PUBLISHED, DigestPageFactory

PAGES_URL = "/api/v2/pages/"
DIGEST_TYPE = "digests.DigestPage"
TOPIC_TYPE = "digests.TopicPage"


class SeedCopy:
    """The shipped seed's JSON in `data`, to edit; `write()` saves it where an import reads it."""

    def __init__(self, seed_path: Path, folder: Path) -> None:
        self.data: dict = json.loads(seed_path.read_text(encoding="utf-8"))
        self.folder = folder

    def write(self, name: str = "seed.json") -> Path:
        path = self.folder / name
        path.write_text(json.dumps(self.data, ensure_ascii=False), encoding="utf-8")
        return path


@pytest.fixture
def seed_copy(seed_path, tmp_path) -> SeedCopy:
    """A fresh copy of the seed per test, so tests feed the import edited files."""
    return SeedCopy(seed_path, tmp_path)


@pytest.fixture(autouse=True)
def views_without_api_caches(uncached_api):
    """Exercise the views themselves (tests/apicache covers the caches)."""


@pytest.fixture
def api_get(client):
    """GET an API URL with query parameters; returns the response (JSON in `.json()`)."""

    def get(path: str = PAGES_URL, **params):
        return client.get(path, params, HTTP_HOST="testserver")

    return get


@pytest.fixture
def api_items(api_get):
    """GET a listing that must succeed; returns its items."""

    def items(path: str = PAGES_URL, **params):
        response = api_get(path, **params)
        assert response.status_code == 200, response.content
        return response.json()["items"]

    return items


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
