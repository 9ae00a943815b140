"""Chooser fields whose "Edit this ..." link shows only to users the policy lets edit the choice.

Wagtail's choosers link to the chosen object's editor whoever is looking; a translator editing a
zh-hant digest in Wagtail's own editor (after "Stop translation") was led by "Edit this paper"
to a permission denial. The link is the widget's public `show_edit_link` option, turned off per
request here (each form instance has its own copy of the widget).
"""

from wagtail.admin.panels import FieldPanel

from cms.translation.policy import rules as policy


class EditLinkByPolicyFieldPanel(FieldPanel):
    """A FieldPanel for a foreign key to a snippet, e.g. a digest's paper."""

    class BoundPanel(FieldPanel.BoundPanel):
        def __init__(self, **kwargs):
            super().__init__(**kwargs)
            if self.bound_field is None or self.request is None:
                return
            model = self.panel.db_field.related_model
            if not policy.may_edit_snippet(self.request.user, model):
                self.bound_field.field.widget.show_edit_link = False
