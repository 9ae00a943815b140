"""Wagtail's bulk Delete and Move for pages, asking cms.translation.policy at the first step.

Wagtail lists every registered bulk action in the page explorer whoever is looking (its
`bulk_action_choices` tag has no user and no hook to filter them), so a translator is offered
Delete and Move. Each action's `check_perm` decides which chosen pages its confirmation screen
offers; Wagtail's own asks only page permissions (change + publish may delete and move). These
subclasses, registered over Wagtail's, also ask the policy, so the confirmation screen says at
once "You don't have permission to ..." and offers only "Go back", instead of a confirmation
that the last step (the before_bulk_action hook, kept as the guard) refuses.
"""

from wagtail.admin.views.pages.bulk_actions.delete import DeleteBulkAction
from wagtail.admin.views.pages.bulk_actions.move import MoveBulkAction
from wagtail.models import Page

from . import policy


class RoleCheckedDeleteBulkAction(DeleteBulkAction):
    def check_perm(self, page: Page) -> bool:
        return super().check_perm(page) and policy.may_delete(self.request.user, page)


class RoleCheckedMoveBulkAction(MoveBulkAction):
    def check_perm(self, page: Page) -> bool:
        return super().check_perm(page) and policy.may_move(self.request.user, page)
