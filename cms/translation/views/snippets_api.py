"""wagtail-localize's snippet lookup for its translation editor, without edit links it would refuse.

The translation editor shows a synchronized snippet (a digest's paper) by fetching it from this
API and renders "Edit this <snippet>" with the `edit_url` it returns. wagtail-localize returns
that address to anyone; a translator following it meets a permission denial. Served at the same
URLs (see wagtail_hooks), this subclass returns `edit_url: null` unless cms.translation.policy.rules
lets the user edit the snippet, and admin.css hides a link without an address.
"""

from wagtail_localize.views import snippets_api

from cms.translation.policy import rules as policy


class EditUrlForEditorsMixin:
    """Mixed into wagtail-localize's per-model serializer: `edit_url` only for those who may."""

    def get_edit_url(self, instance) -> str | None:
        request = self.context.get("request")
        if request is None or not policy.may_edit_snippet(request.user, type(instance)):
            return None
        return super().get_edit_url(instance)


class SnippetViewSet(snippets_api.SnippetViewSet):
    def get_serializer_class(self):
        base = super().get_serializer_class()
        return type(base.__name__, (EditUrlForEditorsMixin, base), {})
