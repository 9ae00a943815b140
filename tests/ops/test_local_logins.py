"""Issue 46, item 3: `make run`'s local logins have local e-mail addresses (Wagtail's account
page saves no preference without one), logins made by an earlier `make run` get one on the next,
and every `make run` prints them (`local_logins`)."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from cms.translation.policy.roles import EDITORS, TRANSLATORS

pytestmark = pytest.mark.django_db


def make_run() -> str:
    """What `make run` runs of the local logins, and what it prints of them."""
    call_command("create_local_admin", stdout=StringIO())
    call_command("setup_translation_roles", local_users=True, stdout=StringIO())
    out = StringIO()
    call_command("local_logins", stdout=out)
    return out.getvalue()


def test_the_local_logins_have_addresses_and_are_printed(settings):
    settings.DEBUG = True
    printed = make_run()

    users = get_user_model().objects.in_bulk(field_name="username")
    assert users["admin"].email == "admin@localhost" and users["admin"].is_superuser
    assert users["editor"].email == "editor@localhost"
    assert users["translator"].email == "translator@localhost"
    assert users["translator"].groups.filter(name=TRANSLATORS).exists()
    assert users["editor"].groups.filter(name=EDITORS).exists()
    assert users["translator"].check_password("translator")
    lines = [line.split() for line in printed.splitlines()[1:]]
    assert lines == [
        ["user", "password", "role", "e-mail"],
        ["admin", "admin", "superuser", "admin@localhost"],
        ["editor", "editor", "Editors", "editor@localhost"],
        ["translator", "translator", "Translators", "translator@localhost"],
    ]


def test_a_rerun_gives_earlier_local_logins_an_address_and_keeps_what_people_set(settings):
    settings.DEBUG = True
    model = get_user_model()
    model.objects.create_user("translator", "", "translator")  # as an earlier make run did
    model.objects.create_user("editor", "me@example.org", "my own password")

    printed = make_run()

    translator, editor = (
        model.objects.get(username="translator"),
        model.objects.get(username="editor"),
    )
    assert translator.email == "translator@localhost" and translator.first_name
    assert editor.email == "me@example.org" and editor.check_password("my own password")
    assert "me@example.org" in printed


def test_no_local_logins_with_debug_off(settings):
    settings.DEBUG = False
    with pytest.raises(CommandError):
        call_command("setup_translation_roles", local_users=True, stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("create_local_admin", stdout=StringIO())
    assert not get_user_model().objects.exists()
