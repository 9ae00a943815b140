"""Bulk actions a snippet listing offers: only those the person looking may carry out.

Wagtail shows a listing's checkboxes and its bulk bar to everyone who sees the listing, and
checks the right only once the action is chosen. Wagtail's only snippet bulk action is Delete,
and the project's roles (cms.translation.policy.roles) give editors no right to delete papers nor
the glossary: they were offered a bar whose one button they may not use. The rights come from
the roles' groups, through the model's Wagtail permission policy.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Model
from django.utils.functional import cached_property
from wagtail.admin.views.bulk_action.registry import bulk_action_registry
from wagtail.permissions import policy_registry

# The permission each of Wagtail's snippet bulk actions asks for when it runs (an action this
# map does not know is offered, as Wagtail would, and still checked when it runs).
ACTION_PERMISSIONS = {"delete": "delete"}


def permitted_bulk_actions(user: AbstractBaseUser | AnonymousUser, model: type[Model]) -> list:
    """The bulk action classes registered for `model` that `user` may carry out."""
    policy = policy_registry.get_by_type(model)
    actions = bulk_action_registry.get_bulk_actions_for_model(
        model._meta.app_label, model._meta.model_name
    )
    return [
        action
        for action in actions
        if action.action_type not in ACTION_PERMISSIONS
        or policy.user_has_permission(user, ACTION_PERMISSIONS[action.action_type])
    ]


class PermittedBulkActionsMixin:
    """For a snippet IndexView: no checkboxes and no bulk bar for someone who may carry out
    none of the bulk actions (the listing is then Wagtail's plain generic one)."""

    @cached_property
    def offers_bulk_actions(self) -> bool:
        return bool(permitted_bulk_actions(self.request.user, self.model))

    @cached_property
    def columns(self):
        columns = super().columns
        if self.offers_bulk_actions:
            return columns
        return [column for column in columns if column.name != "bulk_actions"]

    def get_template_names(self) -> list[str]:
        if self.offers_bulk_actions:
            return super().get_template_names()
        # The snippets index template only adds the bulk bar to the generic one.
        return ["wagtailadmin/generic/index.html"]
