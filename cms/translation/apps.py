from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TranslationConfig(AppConfig):
    name = "cms.translation"
    label = "translation"
    verbose_name = _("Translation")

    def ready(self) -> None:
        from cms.translation import receivers
        from cms.translation.workflow import tree

        tree.connect()
        receivers.connect()
