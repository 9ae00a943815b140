"""Keep the translation memory current: a publish records the page, an unpublish forgets it."""

from django.conf import settings
from django.dispatch import receiver
from wagtail.signals import page_published, page_unpublished

from . import memory


@receiver(page_published, dispatch_uid="terminology-memory-published")
def record_translation(sender, instance, **kwargs) -> None:
    if instance.locale.language_code != settings.LANGUAGE_CODE:
        memory.record_published(instance)


@receiver(page_unpublished, dispatch_uid="terminology-memory-unpublished")
def forget_page(sender, instance, **kwargs) -> None:
    memory.forget_page(instance)
