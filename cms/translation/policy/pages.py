"""The last check before any page revision goes live, whichever path publishes it.

Every way of publishing a page (the edit view, bulk actions, workflow approval, scheduled
publishing, revision reverts, wagtail-localize's update, submit and translation editor) ends in
`Page.publish(revision, ...)`, called on the specific page. Admin views check roles and the
zh-Hant guard first, so a person sees why; this mixin refuses what slipped past them, e.g. a
scheduled zh-hant revision whose text gained Simplified characters after it was scheduled, or
a workflow approval of such a revision.
"""

import logging

from wagtail.models import Page, PagePermissionTester, Revision

from cms.translation.policy import rules as policy

logger = logging.getLogger(__name__)


class RoleCheckedPermissionTester(PagePermissionTester):
    """Wagtail's page permissions, less what the policy refuses.

    Wagtail's actions (wagtail.actions: publish, unpublish, delete, move, copy, alias) ask
    these in their own `check`, whichever path runs them: the admin views, bulk actions and the
    admin API's page actions (/admin/api/main/pages/<id>/action/<name>/), which call no
    `before_*` hook. What a publish would put live (the zh-Hant guard, untranslated or
    unreleased text) is not a permission and is not asked here: a button hidden for it would
    not say why (cms.translation.workflow.publishing and `publish()` below refuse it, saying why).
    """

    def can_publish(self) -> bool:
        return super().can_publish() and policy.may_write(self.user, self.page)

    def can_unpublish(self) -> bool:
        return super().can_unpublish() and policy.may_write(self.user, self.page)

    def can_move_to(self, destination: Page) -> bool:
        return super().can_move_to(destination) and policy.may_move(
            self.user, self.page, destination
        )

    def can_copy_to(self, destination: Page, recursive: bool = False) -> bool:
        # Wagtail's copy and alias actions, the admin API's included, ask this.
        return (
            super().can_copy_to(destination, recursive)
            and policy.may_copy(self.user, self.page)
            and policy.may_write(self.user, destination)
        )

    def can_delete(self, ignore_bulk: bool = False) -> bool:
        # Wagtail's Delete everywhere (and Move, which asks this): the edit view's header,
        # wagtail-localize's translation editor, listings and bulk actions.
        return super().can_delete(ignore_bulk=ignore_bulk) and policy.may_delete(
            self.user, self.page
        )

    def can_set_view_restrictions(self) -> bool:
        # Wagtail's privacy view and its side panel ask only this (publish rights suffice).
        return super().can_set_view_restrictions() and policy.may_set_privacy(self.user, self.page)


class RoleCheckedPageMixin:
    """For page models: what the role policy (cms.translation.policy.rules) refuses is neither
    offered nor done. Wagtail asks the specific class's `permissions_for_user` everywhere (its
    menus and buttons, wagtail-localize's editor, bulk actions' `check_perm`), where a
    `before_*` hook could only refuse after; and `publish()` is the one path that workflow
    approval and scheduled publishing also go through."""

    def permissions_for_user(self, user) -> PagePermissionTester:
        return RoleCheckedPermissionTester(user, self)

    def publish(self, revision: Revision, user=None, **kwargs):
        reason = policy.publish_refusal(user, revision.as_object())
        if reason and user is None and revision.approved_go_live_at is not None:
            # Scheduled publishing: unschedule this revision and let the run go on to the next.
            Revision.objects.filter(pk=revision.pk).update(approved_go_live_at=None)
            logger.warning("Unscheduled revision %s of page %s: %s", revision.pk, self.pk, reason)
            return None
        if reason:
            logger.warning("Refused revision %s of page %s: %s", revision.pk, self.pk, reason)
            raise policy.PublishRefused(reason)
        return super().publish(revision, user=user, **kwargs)
