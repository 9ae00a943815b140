from celery.signals import worker_process_init
from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from .switch_interval import hand_the_lock_over_sooner


class SyncConfig(AppConfig):
    name = "sync"
    label = "sync"
    verbose_name = _("Metadata sync")
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Celery's Django fixup sets Django up in the worker's main process before the pool
        forks, so each pool process starts with this handler connected."""
        worker_process_init.connect(
            hand_the_lock_over_sooner, dispatch_uid="sync.hand_the_lock_over_sooner"
        )
