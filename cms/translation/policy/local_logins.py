"""The local logins `make run` makes (DEBUG only): who they are, and making or completing them.

One list for the three commands that touch them (`create_local_admin`,
`setup_translation_roles --local-users`, `local_logins`), so the login a newcomer is told about
is the one that exists. Each has an address under `localhost`, which Django's e-mail check
accepts and nothing delivers to: Wagtail's account page will not save a preference (the admin
language) for a user without one, and a translator without one gets no notice of new work.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser, Group
from django.utils.translation import gettext_lazy as _

from cms.translation.policy.roles import EDITORS, TRANSLATORS

LOCAL_EMAIL_DOMAIN = "localhost"


@dataclass(frozen=True)
class LocalLogin:
    username: str
    password: str
    role: str  # a group of cms.translation.policy.roles, or "" for the superuser

    @property
    def email(self) -> str:
        return f"{self.username}@{LOCAL_EMAIL_DOMAIN}"


ADMIN = LocalLogin("admin", "admin", "")
LOCAL_LOGINS = [
    ADMIN,
    LocalLogin("editor", "editor", EDITORS),
    LocalLogin("translator", "translator", TRANSLATORS),
]


class NotLocal(Exception):
    """Local logins are made only with DEBUG on: a production database gets none."""


def ensure_local_login(
    login: LocalLogin, *, group: Group | None = None
) -> tuple[AbstractUser, bool]:
    """The user of `login`, made if missing (True) or completed if an earlier `make run` made it
    without an e-mail address or a name (the account page asks for both). A password or an
    address someone set since is theirs, and kept."""
    if not settings.DEBUG:
        raise NotLocal(_("Refusing to create local logins with DEBUG off."))
    user, created = get_user_model().objects.get_or_create(username=login.username)
    if created:
        user.set_password(login.password)
        user.is_staff = user.is_superuser = not login.role
    user.email = user.email or login.email
    # A name, as Wagtail's account page asks for one before it saves preferences.
    user.first_name = user.first_name or "Local"
    user.last_name = user.last_name or login.username.capitalize()
    user.save()
    if group is not None:
        user.groups.add(group)
    return user, created


def login_table() -> list[tuple[str, str, str, str]]:
    """(user, password, role, e-mail) of each local login that exists, for `make run` to print.
    The password shown is the documented one; a user who changed it knows their own."""
    users = get_user_model().objects.in_bulk(
        [login.username for login in LOCAL_LOGINS], field_name="username"
    )
    superuser = str(_("superuser"))
    return [
        (login.username, login.password, login.role or superuser, users[login.username].email)
        for login in LOCAL_LOGINS
        if login.username in users
    ]
