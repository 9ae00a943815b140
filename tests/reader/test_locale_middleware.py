"""The address picks the language on the reader's pages only; the admin and the API negotiate.

With `i18n_patterns` in the URLconf, Django's own LocaleMiddleware would serve every
unprefixed path (the admin, its login page, the API) in English whatever the visitor asks for.
"""

import re

import pytest
from django.conf import settings
from django.urls import resolve
from django.utils import translation
from wagtail.users.models import UserProfile

from cms.reader.locale_middleware import takes_language_from_address

pytestmark = pytest.mark.django_db

ADMIN_HTML_LANG = re.compile(r'<html lang="([^"]+)"')


def admin_language(response) -> str:
    assert response.status_code == 200
    return ADMIN_HTML_LANG.search(response.content.decode()).group(1)


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("/", True),
        ("/inside-the-server/", True),
        ("/inside-the-server/fabricperf/", True),
        ("/zh-hant/", True),
        ("/zh-hant/inside-the-server/fabricperf/", True),
        ("/admin/", False),
        ("/admin/login/", False),
        ("/api/v2/pages/", False),
        ("/api/v2/schema/", False),
        ("/preview/", False),
        ("/documents/1/file.pdf", False),
    ],
)
def test_which_routes_take_their_language_from_the_address(path, expected):
    # Resolved as Django resolves them: in the prefix's language, else the default one.
    language = translation.get_language_from_path(path) or settings.LANGUAGE_CODE
    with translation.override(language):
        match = resolve(path)

    assert takes_language_from_address(match) is expected


def test_admin_login_follows_the_browser(client):
    assert admin_language(client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE="zh-TW")) == "zh-hant"
    assert admin_language(client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE="en-GB")) == "en"


def test_admin_follows_the_language_cookie(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"

    assert admin_language(client.get("/admin/login/", HTTP_ACCEPT_LANGUAGE="en")) == "zh-hant"


def test_admin_user_without_a_preference_gets_the_browsers_language(admin_client):
    assert admin_language(admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE="zh-TW")) == "zh-hant"
    assert admin_language(admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE="en")) == "en"


@pytest.mark.parametrize("preferred", ["en", "zh-hant"])
def test_admin_users_own_language_wins(admin_client, admin_user, preferred):
    profile = UserProfile.get_for_user(admin_user)
    profile.preferred_language = preferred
    profile.save()
    browser = "en" if preferred == "zh-hant" else "zh-TW"

    assert admin_language(admin_client.get("/admin/", HTTP_ACCEPT_LANGUAGE=browser)) == preferred


def test_api_messages_follow_the_browser(client):
    response = client.get("/api/v2/pages/", {"limit": ["1", "2"]}, HTTP_ACCEPT_LANGUAGE="zh-TW")

    assert response.status_code == 400
    assert response.json() == {"message": "limit 出現不只一次"}
    assert "Accept-Language" in response["Vary"]


def test_reader_pages_ignore_the_browser_and_the_cookie(client):
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "zh-hant"

    assert client.get("/", HTTP_ACCEPT_LANGUAGE="zh-TW")["Content-Language"] == "en"
    assert client.get("/zh-hant/", HTTP_ACCEPT_LANGUAGE="en")["Content-Language"] == "zh-hant"
