"""Tell translators by email when a published English page joins their queue.

At most one email per page per hour, whoever publishes and however often: the rate is one
`cache.add()` of a key that expires after `TRANSLATION_NOTICE_INTERVAL` seconds. The cache
rather than a table because the fact is short-lived and needs no history: `add` is atomic on
the shared production cache (Redis), needs no migration and no clean-up job, and losing it (a
cache flush) costs at most one extra email.

Nothing is sent from inside the publishing request's transaction: the email leaves after the
commit (so a rolled-back publish sends nothing), through a Celery task when a broker is
configured, else in-process right after the commit. Pages published together (an import)
make one email per translator.
"""

import logging
import threading

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from wagtail.models import Page
from wagtail.signals import page_published
from wagtail.users.models import UserProfile

from cms.ops.background import send_to_worker, worker_configured

from .languages import LANGUAGE_ROOT_DEPTH
from .queue import QUEUE_LABELS, translation_queue
from .roles import TRANSLATORS

logger = logging.getLogger(__name__)


def translators():
    """Active members of the Translators group who have an email address."""
    return (
        get_user_model()
        .objects.filter(groups__name=TRANSLATORS, is_active=True)
        .exclude(email="")
        .distinct()
        .order_by("pk")
    )


ID_CHUNK = 500  # below every database's limit on query parameters


def waiting_pages(page_ids: list[int]) -> list[Page]:
    """The pages among `page_ids` in the translator's queue, newest change first."""
    waiting = []
    for start in range(0, len(page_ids), ID_CHUNK):
        chunk = page_ids[start : start + ID_CHUNK]
        waiting.extend(translation_queue().filter(pk__in=chunk))
    if len(page_ids) > ID_CHUNK:
        waiting.sort(key=lambda page: (page.last_published_at, page.pk), reverse=True)
    return waiting


def notify_translators(page_ids: list[int]) -> str:
    """Email every translator the English pages among `page_ids` that wait for them.

    One email per translator, listing each waiting page not announced within the interval.
    Returns a short status: "not-waiting" (every page is up to date, or no English topic or
    digest), "no-translators", "rate-limited" (all announced within the interval), or "sent N".
    """
    recipients = list(translators())
    if not recipients:
        return "no-translators"
    waiting = waiting_pages(page_ids)
    if not waiting:
        return "not-waiting"
    # One key per English page: its translation key, the same page whatever its id.
    interval = settings.TRANSLATION_NOTICE_INTERVAL
    keys = {page.pk: f"translation:notice:{page.translation_key}" for page in waiting}
    fresh = [page for page in waiting if cache.add(keys[page.pk], page.pk, timeout=interval)]
    if not fresh:
        return "rate-limited"
    queue_url = settings.WAGTAILADMIN_BASE_URL.rstrip("/") + reverse("translation_queue")
    messages = []
    for user in recipients:
        language = UserProfile.get_for_user(user).get_preferred_language()
        with translation.override(language):
            rows = [{"page": page, "state": str(QUEUE_LABELS[page.queue_state])} for page in fresh]
            context = {"rows": rows, "queue_url": queue_url}
            subject = render_to_string("translation/email/waiting_subject.txt", context)
            body = render_to_string("translation/email/waiting_body.txt", context)
        messages.append(mail.EmailMessage(" ".join(subject.split()), body, to=[user.email]))
    try:
        sent = mail.get_connection().send_messages(messages)
    except Exception:
        # Nothing was announced: the next publish of these pages must try again.
        cache.delete_many([keys[page.pk] for page in fresh])
        raise
    return f"sent {sent}"


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
    ids = pending_page_ids()
    if not ids:
        return
    page_ids = list(dict.fromkeys(ids))
    ids.clear()
    if worker_configured():
        from .tasks import notify_translators_task

        if send_to_worker(notify_translators_task, page_ids):
            return
    try:
        # In-process: a mail server that is down must not turn a publish into an error page.
        notify_translators(page_ids)
    except Exception:
        logger.exception("Could not notify translators about pages %s", page_ids)


def on_page_published(sender, instance, **kwargs) -> None:
    # The language is checked by the queue's one query after the commit, not here: reading
    # each page's locale would cost a query per page of an import.
    if instance.depth > LANGUAGE_ROOT_DEPTH:
        enqueue_notification(instance.pk)


def connect() -> None:
    page_published.connect(on_page_published, dispatch_uid="translation-notify-translators")
