"""Keep the translation memory current: a publish records the page, an unpublish forgets it."""

from django.conf import settings
from wagtail.signals import page_published, page_unpublished

from . import memory


def _published(sender, instance, **kwargs) -> None:
    if instance.locale.language_code != settings.LANGUAGE_CODE:
        memory.record_published(instance)


def _unpublished(sender, instance, **kwargs) -> None:
    memory.forget_page(instance)


def connect() -> None:
    page_published.connect(_published, dispatch_uid="terminology-memory-published")
    page_unpublished.connect(_unpublished, dispatch_uid="terminology-memory-unpublished")
