"""Login brute-force protection (django-axes) on the admin's login form, per user at an address
and, past a higher limit, per address."""

import pytest
from axes.models import AccessAttempt
from django.contrib.auth import get_user_model
from django.urls import reverse

pytestmark = pytest.mark.django_db

LOGIN_URL = "/admin/login/"
PASSWORD = "correct horse battery staple"


@pytest.fixture
def editor():
    return get_user_model().objects.create_user(
        "editor", "editor@example.com", PASSWORD, is_staff=True, is_superuser=True
    )


def log_in(client, username: str, password: str, address: str = "198.51.100.7", **headers):
    return client.post(
        LOGIN_URL,
        {"username": username, "password": password, "next": "/admin/"},
        REMOTE_ADDR=address,
        **headers,
    )


def is_logged_in(client) -> bool:
    return "_auth_user_id" in client.session


def test_the_right_password_logs_in_before_any_failure(client, editor):
    response = log_in(client, "editor", PASSWORD)

    assert response.status_code == 302
    assert is_logged_in(client)


def test_thirty_wrong_passwords_then_the_right_one_is_locked_out(client, editor, settings):
    statuses = [log_in(client, "editor", f"guess-{n}").status_code for n in range(30)]

    response = log_in(client, "editor", PASSWORD)

    assert statuses[: settings.AXES_FAILURE_LIMIT - 1] == [200] * (settings.AXES_FAILURE_LIMIT - 1)
    assert set(statuses[settings.AXES_FAILURE_LIMIT :]) == {429}
    assert response.status_code == 429
    assert not is_logged_in(client)
    assert client.get("/admin/").status_code == 302  # still sent to the login form
    attempt = AccessAttempt.objects.get(username="editor")
    assert attempt.ip_address == "198.51.100.7"
    assert attempt.failures_since_start >= settings.AXES_FAILURE_LIMIT


def test_guessing_a_user_name_elsewhere_does_not_lock_its_owner_out(client, editor, settings):
    """Five wrong passwords for `editor` from an attacker's address leave the real editor alone."""
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "editor", f"guess-{n}", address="198.51.100.7")

    attacker = log_in(client, "editor", PASSWORD, address="198.51.100.7")
    client.logout()
    owner = log_in(client, "editor", PASSWORD, address="203.0.113.50")

    assert attacker.status_code == 429
    assert owner.status_code == 302
    assert is_logged_in(client)


def test_a_few_wrong_guesses_do_not_lock_colleagues_on_the_same_address(client, editor, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, f"someone-{n}", "guess", address="198.51.100.7")
    log_in(client, "someone-0", "guess", address="198.51.100.7")

    response = log_in(client, "editor", PASSWORD, address="198.51.100.7")

    assert response.status_code == 302
    assert is_logged_in(client)


def test_the_address_limit_locks_the_address_for_every_user_name(client, editor, settings):
    settings.AXES_ADDRESS_FAILURE_LIMIT = settings.AXES_FAILURE_LIMIT * 2
    for n in range(settings.AXES_ADDRESS_FAILURE_LIMIT):
        log_in(client, f"someone-{n}", "guess", address="198.51.100.7")

    same_address = log_in(client, "editor", PASSWORD, address="198.51.100.7")
    other_address = log_in(client, "editor", PASSWORD, address="203.0.113.50")

    assert same_address.status_code == 429
    assert other_address.status_code == 302
    assert is_logged_in(client)


def test_the_address_limit_is_never_below_the_user_limit(settings):
    assert settings.AXES_ADDRESS_FAILURE_LIMIT > settings.AXES_FAILURE_LIMIT


def test_a_colleague_s_login_from_the_same_address_does_not_reset_the_count(
    client, editor, settings
):
    get_user_model().objects.create_user("colleague", password="colleague-pw", is_staff=True)
    for round_ in range(3):
        for n in range(settings.AXES_FAILURE_LIMIT - 2):
            log_in(client, "editor", f"guess-{round_}-{n}")
        log_in(client, "colleague", "colleague-pw")
        client.logout()

    response = log_in(client, "editor", PASSWORD)

    assert response.status_code == 429
    assert not is_logged_in(client)


def test_a_forged_forwarded_for_does_not_escape_the_lockout(client, editor, settings):
    """Behind one trusted proxy, a client that reaches gunicorn directly is its own address."""
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_ADDRESSES = ["127.0.0.1"]
    settings.AXES_ADDRESS_FAILURE_LIMIT = settings.AXES_FAILURE_LIMIT * 2
    for n in range(settings.AXES_ADDRESS_FAILURE_LIMIT):
        log_in(client, f"someone-{n}", "guess", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}")

    response = log_in(client, "editor", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.200")

    assert response.status_code == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"198.51.100.7"}


def test_behind_the_proxy_the_lockout_is_per_client(client, editor, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_ADDRESSES = ["127.0.0.1"]
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, f"someone-{n}", "guess", "127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.1")

    other_client = log_in(client, "editor", PASSWORD, "127.0.0.1", HTTP_X_FORWARDED_FOR="192.0.2.2")

    assert other_client.status_code == 302
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"192.0.2.1"}


def test_the_reset_command_lifts_the_lockout(client, editor, settings):
    from django.core.management import call_command

    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "editor", f"guess-{n}")
    assert log_in(client, "editor", PASSWORD).status_code == 429

    call_command("axes_reset_username", "editor", verbosity=0)

    assert log_in(client, "editor", PASSWORD).status_code == 302
    assert is_logged_in(client)


def test_an_admin_sees_and_lifts_lockouts_in_wagtail(client, editor, settings):
    for n in range(settings.AXES_FAILURE_LIMIT):
        log_in(client, "editor", f"guess-{n}")
    attempt = AccessAttempt.objects.get(username="editor")
    admin = get_user_model().objects.create_superuser("admin", "admin@example.com", "x")
    client.force_login(admin)

    listing = client.get(reverse("login_lockouts:index"))
    delete = client.post(reverse("login_lockouts:delete", args=[attempt.pk]))

    assert listing.status_code == 200
    assert b"198.51.100.7" in listing.content and b"editor" in listing.content
    assert delete.status_code == 302
    assert not AccessAttempt.objects.exists()
    client.logout()
    assert log_in(client, "editor", PASSWORD).status_code == 302


def test_lockouts_cannot_be_added_or_edited_in_the_admin(client, editor, settings):
    log_in(client, "editor", "guess")
    attempt = AccessAttempt.objects.get(username="editor")
    admin = get_user_model().objects.create_superuser("admin", "admin@example.com", "x")
    client.force_login(admin)

    add = client.get(reverse("login_lockouts:add"))
    edit = client.post(reverse("login_lockouts:edit", args=[attempt.pk]), {"username": "x"})

    assert add.status_code == 302 and edit.status_code == 302  # permission denied
    assert AccessAttempt.objects.get().username == "editor"


def test_non_admins_do_not_see_lockouts(client, editor):
    user = get_user_model().objects.create_user("reader", password="x", is_staff=True)
    from django.contrib.auth.models import Permission

    user.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client.force_login(user)

    assert client.get(reverse("login_lockouts:index")).status_code == 302


def test_the_django_admin_is_gone(client):
    response = client.get("/django-admin/login/")

    assert response.status_code == 404
    assert b'name="password"' not in response.content
