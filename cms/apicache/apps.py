from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class APICacheConfig(AppConfig):
    name = "cms.apicache"
    verbose_name = _("API response cache")

    def ready(self) -> None:
        from . import localize, stale

        stale.connect()
        localize.connect()
