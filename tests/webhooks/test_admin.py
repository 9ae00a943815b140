"""Settings > Webhooks as the users: an admin adds an endpoint (secret shown once), sends a
test event, rotates the secret, reads the log and resends; editors and translators, who lack
the endpoint permissions, are refused every one of those and change nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from cms.translation.policy.roles import EDITORS, TRANSLATORS
from cms.webhooks.models import Delivery, Endpoint
from tests.support.users import member
from tests.webhooks.conftest import deliver_pending


@pytest.fixture
def admin_client(client, db):
    client.force_login(get_user_model().objects.create_superuser("boss", "b@example.org", "pw"))
    return client


def shown_secret(response) -> str:
    return re.search(r"<code data-webhook-secret>([^<]+)</code>", response.content.decode())[1]


def test_an_admin_adds_an_endpoint_and_sees_its_secret_once(admin_client, receiver):
    response = admin_client.post(
        reverse("webhook_endpoints:add"),
        {"url": receiver.url, "events": ["page.published", "paper.updated"], "active": "on"},
        follow=True,
    )
    endpoint = Endpoint.objects.get()
    assert endpoint.events == ["page.published", "paper.updated"] and endpoint.active
    assert shown_secret(response) == endpoint.secret
    again = admin_client.get(reverse("webhook_endpoints:secret", args=[endpoint.pk]), follow=True)
    assert endpoint.secret not in again.content.decode()
    edit = admin_client.get(reverse("webhook_endpoints:edit", args=[endpoint.pk]))
    assert edit.status_code == 200 and endpoint.secret not in edit.content.decode()
    listing = admin_client.get(reverse("webhook_endpoints:index")).content.decode()
    assert "Page published, Paper updated" in listing  # as labels, not a Python list
    assert "['page.published'" not in listing


def test_the_form_names_what_is_wrong_with_a_url(admin_client, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    response = admin_client.post(
        reverse("webhook_endpoints:add"),
        {"url": "http://169.254.169.254/latest/", "events": ["page.published"]},
    )
    assert "169.254.169.254" in response.content.decode()
    assert "link-local" in response.content.decode()
    assert not Endpoint.objects.exists()


def test_send_test_event_rotate_and_resend(admin_client, endpoint, receiver):
    admin_client.post(reverse("webhook_endpoints:send_test", args=[endpoint.pk]))
    delivery = Delivery.objects.get(event_type="webhook.test")
    assert deliver_pending() == ["delivered"]
    assert receiver.payloads()[0]["data"]["endpoint"]["id"] == endpoint.pk

    log = admin_client.get(reverse("webhook_deliveries:index") + f"?endpoint={endpoint.pk}")
    assert log.status_code == 200 and "webhook.test" in log.content.decode()
    inspect = admin_client.get(reverse("webhook_deliveries:inspect", args=[delivery.pk]))
    assert delivery.webhook_id in inspect.content.decode()

    old = endpoint.secret
    response = admin_client.post(
        reverse("webhook_endpoints:rotate", args=[endpoint.pk]), follow=True
    )
    endpoint.refresh_from_db()
    assert endpoint.secret != old and endpoint.previous_secret == old
    assert shown_secret(response) == endpoint.secret

    admin_client.post(reverse("webhook_deliveries:resend", args=[delivery.pk]))
    receiver.secrets = [endpoint.secret]
    assert deliver_pending() == ["delivered"]
    assert receiver.received[-1].webhook_id == delivery.webhook_id
    assert receiver.received[-1].verified is not None


@pytest.mark.parametrize("role", [EDITORS, TRANSLATORS])
def test_editors_and_translators_are_refused(client, endpoint, role):
    user = member(role, "someone", email="s@example.org")
    client.force_login(user)
    delivery = Delivery.objects.create(endpoint=endpoint, event_type="webhook.test", payload={})
    secret = endpoint.secret
    gets = [
        reverse("webhook_endpoints:index"),
        reverse("webhook_endpoints:edit", args=[endpoint.pk]),
        reverse("webhook_deliveries:index"),
        reverse("webhook_deliveries:inspect", args=[delivery.pk]),
        reverse("webhook_endpoints:secret", args=[endpoint.pk]),
    ]
    for url in gets:
        response = client.get(url)
        assert response.status_code in (302, 403), url
        assert secret not in response.content.decode()
    posts = [
        (
            reverse("webhook_endpoints:add"),
            {"url": "http://127.0.0.1:9/", "events": ["sync.finished"]},
        ),
        (reverse("webhook_endpoints:edit", args=[endpoint.pk]), {"url": "http://127.0.0.1:9/"}),
        (reverse("webhook_endpoints:send_test", args=[endpoint.pk]), {}),
        (reverse("webhook_endpoints:rotate", args=[endpoint.pk]), {}),
        (reverse("webhook_endpoints:delete", args=[endpoint.pk]), {}),
        (reverse("webhook_deliveries:resend", args=[delivery.pk]), {}),
    ]
    for url, data in posts:
        response = client.post(url, data)
        assert response.status_code in (302, 403), url
        assert secret not in response.content.decode()
    endpoint.refresh_from_db()
    assert Endpoint.objects.count() == 1 and endpoint.secret == secret
    assert endpoint.url != "http://127.0.0.1:9/"
    assert list(Delivery.objects.values_list("pk", flat=True)) == [delivery.pk]


def test_add_webhook_command(db, capsys, settings):
    call_command(
        "add_webhook",
        "http://127.0.0.1:8001/hook",
        "--event",
        "page.published",
        "--event",
        "translation.published",
        "--locale",
        "zh-hant",
    )
    endpoint = Endpoint.objects.get()
    assert endpoint.events == ["page.published", "translation.published"]
    assert endpoint.locale.language_code == "zh-hant"
    assert endpoint.secret in capsys.readouterr().out

    from django.core.management import CommandError

    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False
    with pytest.raises(CommandError, match=r"url: .*127\.0\.0\.1"):
        call_command("add_webhook", "http://127.0.0.1:8001/hook", "--event", "page.published")
    with pytest.raises(CommandError, match="'xx' is not a language"):
        call_command(
            "add_webhook", "https://93.184.215.14/", "--event", "page.published", "--locale", "xx"
        )
    assert Endpoint.objects.count() == 1


def test_a_disabled_endpoint_says_why_and_an_admin_turns_it_on_again(admin_client, endpoint):
    Endpoint.objects.filter(pk=endpoint.pk).update(
        active=False, consecutive_failures=5, disabled_reason="5 deliveries in a row failed."
    )
    edit_url = reverse("webhook_endpoints:edit", args=[endpoint.pk])
    assert "5 deliveries in a row failed." in admin_client.get(edit_url).content.decode()
    admin_client.post(edit_url, {"url": endpoint.url, "events": endpoint.events, "active": "on"})
    endpoint.refresh_from_db()
    assert endpoint.active and endpoint.consecutive_failures == 0
    assert endpoint.disabled_reason == ""


def test_the_listings_read_endpoints_and_languages_in_one_query(admin_client):
    """The endpoints' language and the deliveries' endpoint are read with the rows, not once
    per row: a delivery log of a hundred rows is not a hundred more queries."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from wagtail.models import Locale

    locale = Locale.objects.get(language_code="en")
    counts = {}
    for rows in (2, 12):
        for n in range(rows - Endpoint.objects.count()):
            endpoint = Endpoint.objects.create(
                url=f"http://127.0.0.1:9/{n}", events=["page.published"], locale=locale
            )
            Delivery.objects.create(endpoint=endpoint, event_type="page.published", payload={})
        for name in ("webhook_endpoints:index", "webhook_deliveries:index"):
            with CaptureQueriesContext(connection) as queries:
                assert admin_client.get(reverse(name)).status_code == 200
            counts[name, rows] = len(queries)
    for name in ("webhook_endpoints:index", "webhook_deliveries:index"):
        assert counts[name, 12] == counts[name, 2], name


def test_a_user_who_may_only_add_endpoints_sees_the_secret_of_the_one_they_add(
    client, db, receiver
):
    """The add form is theirs, so is the secret it makes: shown once, with a way back that
    they may follow (the listing, not the edit form they are refused)."""
    from django.contrib.auth.models import Group, Permission

    user = get_user_model().objects.create_user("adder", "a@example.org", "pw")
    group = Group.objects.create(name="Webhook adders")
    group.permissions.add(
        Permission.objects.get(codename="access_admin"),
        Permission.objects.get(codename="add_endpoint"),
    )
    user.groups.add(group)
    client.force_login(user)
    response = client.post(
        reverse("webhook_endpoints:add"),
        {"url": receiver.url, "events": ["page.published"], "active": "on"},
        follow=True,
    )
    endpoint = Endpoint.objects.get()
    assert shown_secret(response) == endpoint.secret
    page = response.content.decode()
    assert reverse("webhook_endpoints:edit", args=[endpoint.pk]) not in page
    assert f'href="{reverse("webhook_endpoints:index")}"' in page


def test_a_test_event_reaches_a_disabled_endpoint(admin_client, endpoint, receiver):
    """The edit form of a disabled endpoint says to turn it on once it answers, and offers
    "Send test event": the test event is sent, so the admin can see that it answers."""
    Endpoint.objects.filter(pk=endpoint.pk).update(
        active=False, consecutive_failures=5, disabled_reason="5 deliveries in a row failed."
    )
    admin_client.post(reverse("webhook_endpoints:send_test", args=[endpoint.pk]))
    assert deliver_pending() == ["delivered"]
    assert receiver.payloads()[0]["type"] == "webhook.test"
    endpoint.refresh_from_db()
    assert not endpoint.active  # still the admin's to turn on


def test_resend_while_an_attempt_is_under_way_is_refused_and_says_so(admin_client, endpoint):
    from cms.webhooks import deliveries, outbox

    delivery = outbox.enqueue_test_event(endpoint)
    deliveries.claim(delivery.pk)  # the worker is sending it now
    before = Delivery.objects.filter(pk=delivery.pk).values().get()
    response = admin_client.post(
        reverse("webhook_deliveries:resend", args=[delivery.pk]), follow=True
    )
    assert "being sent right now" in response.content.decode()
    assert "Delivery queued again." not in response.content.decode()
    assert Delivery.objects.filter(pk=delivery.pk).values().get() == before
