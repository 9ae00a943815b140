"""What a publish starts in this app: the translators' notice, after the commit, never inline.

The service (cms.translation.workflow.notifications) knows nothing of how it is run; this module
hands it to cms.ops.background, the one way a task leaves a request.
"""

import threading

from django.db import transaction
from wagtail.models import Page
from wagtail.signals import page_published

from cms.ops.background import start
from cms.translation.languages import LANGUAGE_ROOT_DEPTH
from cms.translation.tasks import notify_translators_task

_pending = threading.local()


def pending_page_ids() -> list[int]:
    """Pages published in this thread whose notice has not left yet."""
    if not hasattr(_pending, "ids"):
        _pending.ids = []
    return _pending.ids


def enqueue_notification(page_id: int) -> None:
    """Notify after the current transaction commits: in a worker when there is a broker.

    Pages published in one transaction (an import publishes thousands) are gathered into one
    notice: the first callback after the commit takes them all, the others find nothing to do.
    """
    pending_page_ids().append(page_id)
    transaction.on_commit(send_pending)


def send_pending() -> None:
    """Start one notice for the pages gathered so far (a mail server that is down is logged by
    the background run, never turned into an error page of the publish)."""
    ids = pending_page_ids()
    if not ids:
        return
    page_ids = list(dict.fromkeys(ids))
    ids.clear()
    start(notify_translators_task, page_ids)


def on_page_published(sender, instance: Page, **kwargs) -> None:
    # The language is checked by the queue's one query after the commit, not here: reading
    # each page's locale would cost a query per page of an import.
    if instance.depth > LANGUAGE_ROOT_DEPTH:
        enqueue_notification(instance.pk)


def connect() -> None:
    page_published.connect(on_page_published, dispatch_uid="translation-notify-translators")
