"""Password reset requests, the Atom feeds and the sitemap are rate limited (cms.ops.throttling).

A password reset mails whoever owns the address typed in, for anyone who asks: past the limit per
client address or per e-mail address the form answers 429 and sends nothing. The feeds and the
sitemap, like the API, answer 429 with Retry-After to a client address over its rate.
"""

import pytest
from django.core import mail
from django.core.cache import cache
from django.urls import reverse

from cms.settings import base as base_settings
from cms.translation.policy.roles import EDITORS
from tests.support.users import member

pytestmark = pytest.mark.django_db

RESET_URL = "/admin/password_reset/"


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


def rates(settings, **scopes):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **scopes},
    }


@pytest.fixture
def editor(db):
    return member(EDITORS, "editor", email="editor@example.com")


def ask_reset(client, email, address="198.51.100.1"):
    return client.post(RESET_URL, {"email": email}, REMOTE_ADDR=address)


def test_reset_url_is_wagtails():
    assert reverse("wagtailadmin_password_reset") == RESET_URL


def test_password_reset_is_limited_per_account_from_any_address(client, settings, editor):
    rates(settings, password_reset_account="2/hour", password_reset_address="100/hour")

    first = ask_reset(client, "editor@example.com", "198.51.100.1")
    second = ask_reset(client, "EDITOR@example.com", "198.51.100.2")  # the same account
    assert (first.status_code, second.status_code) == (302, 302)
    assert len(mail.outbox) == 2

    refused = ask_reset(client, " Editor@Example.com ", "198.51.100.3")

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert "Too many password reset requests" in refused.content.decode()
    assert len(mail.outbox) == 2  # no third e-mail
    # Another account is not affected.
    member(EDITORS, "other", email="other@example.com")
    assert ask_reset(client, "other@example.com", "198.51.100.3").status_code == 302
    assert len(mail.outbox) == 3


def test_password_reset_is_limited_per_client_address(client, settings, editor):
    rates(settings, password_reset_account="100/hour", password_reset_address="2/hour")
    ask_reset(client, "nobody@example.com")
    ask_reset(client, "someone@example.com")

    refused = ask_reset(client, "editor@example.com")

    assert refused.status_code == 429
    assert int(refused["Retry-After"]) > 0
    assert mail.outbox == []
    assert ask_reset(client, "editor@example.com", "198.51.100.9").status_code == 302
    assert len(mail.outbox) == 1


def test_the_reset_refusal_is_in_the_readers_language(client, settings, editor):
    rates(settings, password_reset_account="1/hour")
    ask_reset(client, "editor@example.com")

    refused = client.post(
        RESET_URL, {"email": "editor@example.com"}, HTTP_ACCEPT_LANGUAGE="zh-hant"
    )

    assert refused.status_code == 429
    assert refused.content.decode().startswith("密碼重設要求過多")


def test_showing_the_reset_form_is_not_counted(client, settings, editor):
    rates(settings, password_reset_account="1/hour", password_reset_address="1/hour")
    for _ in range(3):
        assert client.get(RESET_URL).status_code == 200

    assert ask_reset(client, "editor@example.com").status_code == 302
    assert len(mail.outbox) == 1


@pytest.mark.parametrize("url", ["/feed.atom", "/zh-hant/feed.atom", "/sitemap.xml"])
def test_feeds_and_sitemap_answer_429_past_the_rate(client, settings, url):
    rates(settings, feeds="3/minute")

    statuses = [client.get(url, REMOTE_ADDR="198.51.100.1").status_code for _ in range(4)]

    assert statuses == [200, 200, 200, 429]
    refused = client.get(url, REMOTE_ADDR="198.51.100.1")
    assert int(refused["Retry-After"]) > 0
    assert refused["Cache-Control"] == "no-store"
    assert client.get(url, REMOTE_ADDR="198.51.100.2").status_code == 200


def test_every_limit_is_on_by_default_and_feeds_follow_the_api_rate():
    """The test settings switch the limits off; the deployed defaults have them all."""
    defaults = base_settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert all(defaults.values())
    assert defaults["feeds"] == defaults["anon"]
