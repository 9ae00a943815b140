"""Issue 46, item 3: the translator `make run` makes (setup_translation_roles --local-users) saves
a language preference on Wagtail's account page, on a phone, from English to Chinese and back.
The local logins had no e-mail address, and the account page refused: "Email is required"."""

import pytest
from django.core.management import call_command
from wagtail.users.models import UserProfile

from cms.translation.policy.roles import TRANSLATORS
from tests.browser.conftest import PHONE

from .test_translation_workflow import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "local_logins"


def save_language(page, label: str) -> None:
    page.goto("/admin/account/")
    page.locator("select[name='locale-preferred_language']").select_option(label=label)
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()


def test_the_local_translator_saves_a_language_preference_on_a_phone(
    browser, seeded_live_server, settings, screenshot
):
    settings.DEBUG = True  # the command makes local logins on a development machine only
    call_command("setup_translation_roles", local_users=True, verbosity=0)
    context = browser.new_context(base_url=seeded_live_server.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    try:
        log_in(page, "translator")
        save_language(page, "繁體中文")
        screenshot(page, SCREENSHOTS, "01-saved-in-chinese-390")
        body = page.locator("body").inner_text()
        assert "Email is required" not in body and "必須填寫電子郵件" not in body
        profile = UserProfile.objects.get(user__username="translator")
        assert profile.preferred_language == "zh-hant"
        assert profile.user.groups.filter(name=TRANSLATORS).exists()
        assert page.locator("html").get_attribute("lang") == "zh-hant"

        save_language(page, "English")
        screenshot(page, SCREENSHOTS, "02-saved-in-english-390")
        profile.refresh_from_db()
        assert profile.preferred_language == "en"
        assert page.locator("html").get_attribute("lang") == "en"
    finally:
        context.close()
