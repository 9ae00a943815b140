from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PapersConfig(AppConfig):
    name = "cms.papers"
    verbose_name = _("Papers")

    def ready(self) -> None:
        from .signals import notices_added
        from .tasks import on_notices_added

        # Editors hear of each new notice the sync stores (cms.papers.notices).
        notices_added.connect(on_notices_added, dispatch_uid="papers-email-notices")
