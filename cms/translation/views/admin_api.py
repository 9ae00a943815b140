"""Wagtail's admin API page actions (/admin/api/main/pages/<id>/action/<name>/), through the policy.

Wagtail's admin API runs its actions (wagtail.actions) directly: no `before_*` hook, and for
publish no `Page.publish()` either, which is where the policy's last check sits
(cms.translation.policy.pages). Any admin user could therefore publish, through it, what every admin
view refuses: a zh-hant draft of an English draft, Simplified characters, English text left
untranslated. This endpoint, served in place of Wagtail's own (`construct_admin_api` hook),
offers the same actions, each as the admin's views and bulk actions do it:

- publish: `publishing.publish`, the policy's checks first, and a translated page from what
  its translator wrote;
- unpublish and delete: Wagtail's action, then the same to the English page's translations
  (`tree.cascade_bulk_action`, as the single-page views and bulk actions do);
- move, copy, create an alias, convert an alias, revert to a revision: Wagtail's action, which
  asks the page models' permission tester, which asks the policy (role's language, translators
  neither delete, move nor copy);
- copy for translation is not offered: it makes a page in another language that no
  wagtail-localize translation records, so nothing would know its text is untranslated
  English; translations are started with wagtail-localize's submit view.

Upstream, a hook run before each admin API action (as `before_publish_page` is for the views),
or the publish action calling `Page.publish()`, would make this endpoint unnecessary.
"""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import transaction
from rest_framework import status
from rest_framework.exceptions import PermissionDenied, ValidationError
from rest_framework.response import Response
from wagtail.admin.api.actions.convert_alias import ConvertAliasPageAPIAction
from wagtail.admin.api.actions.copy import CopyPageAPIAction
from wagtail.admin.api.actions.create_alias import CreatePageAliasAPIAction
from wagtail.admin.api.actions.delete import DeletePageAPIAction
from wagtail.admin.api.actions.move import MovePageAPIAction
from wagtail.admin.api.actions.publish import PublishPageAPIAction
from wagtail.admin.api.actions.revert_to_page_revision import RevertToPageRevisionAPIAction
from wagtail.admin.api.actions.unpublish import UnpublishPageAPIAction
from wagtail.admin.api.views import PagesAdminAPIViewSet
from wagtail.models import Page

from cms.translation.policy import rules as policy
from cms.translation.workflow import publishing, tree


class PublishThroughPolicy(PublishPageAPIAction):
    """Publish as `publishing.publish` does; a refusal is a 403 saying why."""

    def execute(self, instance: Page, data: dict) -> Response:
        try:
            publishing.publish(instance, self.request.user)
        except policy.PublishRefused as refused:
            raise PermissionDenied(refused.args[0] if refused.args else None) from refused
        except DjangoValidationError as error:
            raise ValidationError(error.message_dict) from error
        published = instance.specific_class.objects.get(pk=instance.pk)
        return Response(self.view.get_serializer(published).data, status=status.HTTP_200_OK)


class CascadesToTranslations:
    """After Wagtail's action on an English page, the same on its translations."""

    cascaded_action = ""

    def execute(self, instance: Page, data: dict) -> Response:
        with transaction.atomic():
            response = super().execute(instance, data)
            tree.cascade_bulk_action([instance], self.cascaded_action, self.request.user)
        return response


class UnpublishWithTranslations(CascadesToTranslations, UnpublishPageAPIAction):
    cascaded_action = "unpublish"


class DeleteWithTranslations(CascadesToTranslations, DeletePageAPIAction):
    cascaded_action = "delete"


class PolicyCheckedPagesAdminAPIViewSet(PagesAdminAPIViewSet):
    """Wagtail's admin pages endpoint with the actions above (see the module's docstring)."""

    actions = {
        "publish": PublishThroughPolicy,
        "unpublish": UnpublishWithTranslations,
        "delete": DeleteWithTranslations,
        "move": MovePageAPIAction,
        "copy": CopyPageAPIAction,
        "create_alias": CreatePageAliasAPIAction,
        "convert_alias": ConvertAliasPageAPIAction,
        "revert_to_page_revision": RevertToPageRevisionAPIAction,
    }
