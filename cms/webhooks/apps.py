from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class WebhooksConfig(AppConfig):
    """Signed webhooks telling front ends what each write changed (Standard Webhooks)."""

    name = "cms.webhooks"
    label = "webhooks"
    verbose_name = _("Webhooks")

    def ready(self) -> None:
        from . import events

        events.connect()
