"""Users in the project's roles (cms.translation.policy.roles), as tests make them."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from cms.translation.policy.roles import ensure_roles


def member(role: str, username: str | None = None, *, password: str = "pw", email: str = ""):
    """A new user in the group of `role` (EDITORS, TRANSLATORS), named after it by default."""
    user = get_user_model().objects.create_user(username or role.lower(), email, password)
    user.groups.add(ensure_roles()[role])
    return user
