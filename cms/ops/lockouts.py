"""Login lockouts in Wagtail's admin: django-axes' failed-login records, to read and to lift.

django-axes keeps one AccessAttempt per user name and client address with its failure count;
deleting it lifts that lockout (what `manage.py axes_reset_username` / `axes_reset_ip` do).
The records are written by axes only, so the admin may view and delete them, never add or
edit them; who may view or delete is Django's `axes` model permissions (superusers have them).
"""

from __future__ import annotations

from axes.models import AccessAttempt
from django.utils.translation import gettext_lazy as _
from wagtail.admin.viewsets.model import ModelViewSet
from wagtail.permission_policies.base import ModelPermissionPolicy
from wagtail.permissions import register_permission_policy

READ_ONLY_ACTIONS = frozenset({"view", "delete"})


class LockoutPermissionPolicy(ModelPermissionPolicy):
    """Model permissions, with adding and editing refused to everyone (axes writes the rows)."""

    def user_has_permission(self, user, action: str) -> bool:
        return action in READ_ONLY_ACTIONS and super().user_has_permission(user, action)

    def users_with_any_permission(self, actions):
        return super().users_with_any_permission(
            [action for action in actions if action in READ_ONLY_ACTIONS]
        )


register_permission_policy(AccessAttempt, LockoutPermissionPolicy(AccessAttempt))


class LoginLockoutViewSet(ModelViewSet):
    """Settings > Login lockouts: failed logins per user name and address; delete to unlock."""

    model = AccessAttempt
    icon = "lock"
    menu_label = _("Login lockouts")
    add_to_settings_menu = True
    copy_view_enabled = False
    inspect_view_enabled = True
    inspect_view_fields = [
        "username",
        "ip_address",
        "failures_since_start",
        "attempt_time",
        "path_info",
        "user_agent",
    ]
    list_display = ["username", "ip_address", "failures_since_start", "attempt_time"]
    list_filter = ["username", "ip_address"]
    search_fields = ["username", "ip_address"]
    search_backend_name = None
    ordering = ["-attempt_time"]
    form_fields = ["username"]  # never shown: adding and editing are refused (see the policy)
