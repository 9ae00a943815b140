"""Fixtures for the translation workflow: the two roles, one user in each, and helpers."""

import pytest
from django.urls import reverse
from wagtail.models import Locale
from wagtail_localize.models import Translation

from cms.digests.models import DigestPage
from cms.translation.policy.roles import EDITORS, TRANSLATORS, ensure_roles
from tests.support.factories import PUBLISHED, DigestPageFactory
from tests.support.users import member


@pytest.fixture
def roles(db):
    return ensure_roles()


@pytest.fixture
def editor(roles):
    return member(EDITORS, "editor", email="editor@example.com")


@pytest.fixture
def translator(roles):
    return member(TRANSLATORS, "translator", email="translator@example.com")


@pytest.fixture
def zh_locale(db):
    return Locale.objects.get(language_code="zh-hant")


@pytest.fixture
def digest_en(db):
    return DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")


@pytest.fixture
def digest_zh(digest_en, zh_locale):
    return digest_en.get_translation(zh_locale)


@pytest.fixture
def new_digest(digest_en):
    """Make a live English digest beside FabricPerf; returns a function taking its summary."""

    def make(summary: str, title: str = "Rail fabrics in practice") -> DigestPage:
        return DigestPageFactory(
            parent=digest_en.get_parent(),
            title=title,
            slug="rail-fabrics-in-practice",
            short_name="RailPractice",
            reading_minutes=5,
            summary=summary,
            locale=digest_en.locale,
            revision=PUBLISHED,
        )

    return make


@pytest.fixture
def start_translation(client, translator, zh_locale):
    """The translator asks for a zh-hant translation through the admin; returns it."""

    def start(page: DigestPage) -> Translation:
        client.force_login(translator)
        response = client.post(
            reverse("wagtail_localize:submit_page_translation", args=[page.pk]),
            {"locales": [zh_locale.pk]},
        )
        assert response.status_code == 302
        return Translation.objects.get(
            source__object_id=page.translation_key, target_locale=zh_locale
        )

    return start


@pytest.fixture
def en_locale(db):
    return Locale.objects.get(language_code="en")
