from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TranslationConfig(AppConfig):
    name = "cms.translation"
    label = "translation"
    verbose_name = _("Translation")

    def ready(self) -> None:
        from . import receivers, tree

        tree.connect()
        receivers.connect()
