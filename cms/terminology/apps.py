from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TerminologyConfig(AppConfig):
    name = "cms.terminology"
    label = "terminology"
    verbose_name = _("Terminology")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from . import signals  # noqa: F401 (connects the receivers)
