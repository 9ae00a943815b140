"""Wagtail's bulk Delete and Unpublish of pages, whose confirmation names the translations that
go with the English pages (`tree.cascade_bulk_action` acts on them after the bulk action), and
its bulk Publish, which publishes each page through `cms.translation.workflow.publishing` (a
translated page from what its translator wrote, not from a stale revision).

Wagtail's single-page delete and unpublish screens list them (through the cascade hook); its
bulk screens ask no such hook, so an editor confirmed deleting one English digest and lost its
published Chinese translation unwarned. These subclasses are registered in Wagtail's place
(`register_bulk_action`, same action type) and add only that list.
"""

from django.utils.translation import gettext_lazy as _
from wagtail.admin.views.pages.bulk_actions.delete import DeleteBulkAction
from wagtail.admin.views.pages.bulk_actions.publish import PublishBulkAction
from wagtail.admin.views.pages.bulk_actions.unpublish import UnpublishBulkAction
from wagtail.models import Page

from cms.translation.policy import rules as policy
from cms.translation.workflow import publishing, tree


class ListsCascadedTranslations:
    """Adds `cascaded_translations` (page, subpage count) and its heading to the context."""

    cascade_heading = ""

    def subpage_count(self, translation: Page) -> int:
        """How many pages below `translation` go with it."""
        return 0

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        pages = [row["item"] for row in context["items"]]
        context["cascade_heading"] = self.cascade_heading
        context["cascaded_translations"] = [
            (translation, self.subpage_count(translation))
            for translations in tree.translations_cascaded(pages, self.action_type).values()
            for translation in translations
            if tree.cascade_reaches(translation, self.action_type)
        ]
        return context


class DeleteWithTranslationsBulkAction(ListsCascadedTranslations, DeleteBulkAction):
    template_name = "translation/bulk/confirm_bulk_delete.html"
    cascade_heading = _("Their translations are deleted with them:")

    def subpage_count(self, translation: Page) -> int:
        return translation.get_descendant_count()


class UnpublishWithTranslationsBulkAction(ListsCascadedTranslations, UnpublishBulkAction):
    template_name = "translation/bulk/confirm_bulk_unpublish.html"
    cascade_heading = _("Their live translations are unpublished with them:")


class PublishThroughPolicyBulkAction(PublishBulkAction):
    """Wagtail's bulk Publish, each page (and each draft descendant asked for) published as
    `publishing.publish` does. The selected pages were checked before (the before_bulk_action
    hook says why one is refused); a draft descendant the policy refuses is left a draft."""

    @classmethod
    def execute_action(cls, objects, include_descendants=False, user=None, **kwargs):
        parents, children = 0, 0
        for page in objects:
            publishing.publish(page, user)
            parents += 1
            if not include_descendants:
                continue
            for descendant in page.get_descendants().not_live().specific().iterator():
                if user is not None and not descendant.permissions_for_user(user).can_publish():
                    continue
                try:
                    publishing.publish(descendant, user)
                except policy.PublishRefused:
                    continue
                children += 1
        return parents, children
