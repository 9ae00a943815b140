from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SyncConfig(AppConfig):
    name = "sync"
    label = "sync"
    verbose_name = _("Metadata sync")
    default_auto_field = "django.db.models.BigAutoField"
