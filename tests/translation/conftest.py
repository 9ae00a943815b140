"""Fixtures for the translation workflow: the two roles, one user in each, and helpers."""

import pytest
from django.contrib.auth import get_user_model
from wagtail.models import Locale

from cms.digests.models import DigestPage
from cms.translation.roles import EDITORS, TRANSLATORS, ensure_roles


@pytest.fixture
def roles(db):
    return ensure_roles()


def _user(username, group):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", "pw")
    user.groups.add(group)
    return user


@pytest.fixture
def editor(roles):
    return _user("editor", roles[EDITORS])


@pytest.fixture
def translator(roles):
    return _user("translator", roles[TRANSLATORS])


@pytest.fixture
def zh_locale(db):
    return Locale.objects.get(language_code="zh-hant")


@pytest.fixture
def digest_en(db):
    return DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")


@pytest.fixture
def digest_zh(digest_en, zh_locale):
    return digest_en.get_translation(zh_locale)
