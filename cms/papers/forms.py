"""Admin form for papers: locked fields as checkboxes instead of raw JSON."""

from django import forms
from django.utils.translation import gettext_lazy as _
from wagtail.admin.forms import WagtailAdminModelForm


class PaperForm(WagtailAdminModelForm):
    locked_fields = forms.MultipleChoiceField(
        label=_("Locked fields"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("Pinned fields keep your value: the sync worker never writes them."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from .models import LOCKABLE_FIELDS

        self.fields["locked_fields"].choices = LOCKABLE_FIELDS
