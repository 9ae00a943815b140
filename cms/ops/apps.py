from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OpsConfig(AppConfig):
    """Operations: health probes, cache purging, API limits, logging helpers."""

    name = "cms.ops"
    verbose_name = _("Operations")
