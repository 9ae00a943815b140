"""The endpoint form: a URL that may receive webhooks, the events it wants, a language."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from wagtail.admin.forms import WagtailAdminModelForm

from .addresses import UnsafeURL, check_url
from .models import EVENT_TYPES, Endpoint


class EndpointForm(WagtailAdminModelForm):
    url = forms.URLField(label=_("URL"), max_length=1000, assume_scheme="https")
    events = forms.MultipleChoiceField(
        label=_("Events"),
        choices=EVENT_TYPES,
        widget=forms.CheckboxSelectMultiple,
        help_text=_("The events this front end is sent."),
    )

    class Meta:
        model = Endpoint
        fields = ["url", "description", "events", "locale", "active"]

    def clean_url(self) -> str:
        url = self.cleaned_data["url"]
        try:
            check_url(url)
        except UnsafeURL as error:
            raise forms.ValidationError(str(error)) from error
        return url

    def save(self, commit: bool = True) -> Endpoint:
        endpoint = super().save(commit=False)
        if endpoint.active and "active" in self.changed_data:  # turned on again by an admin
            endpoint.consecutive_failures = 0
            endpoint.disabled_reason = ""
        if commit:
            endpoint.save()
        return endpoint
