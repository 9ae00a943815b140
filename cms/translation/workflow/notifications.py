"""Tell translators by email when a published English page joins their queue.

At most one email per page per hour, whoever publishes and however often: the rate is one
`cache.add()` of a key that expires after `TRANSLATION_NOTICE_INTERVAL` seconds. The cache
rather than a table because the fact is short-lived and needs no history: `add` is atomic on
the shared production cache (Redis), needs no migration and no clean-up job, and losing it (a
cache flush) costs at most one extra email.

Nothing is sent from inside the publishing request's transaction: cms.translation.receivers
starts the notice after the commit (so a rolled-back publish sends nothing), in a worker when a
broker is configured, else in a background thread. Pages published together (an import) make
one email per translator.
"""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from wagtail.models import Page
from wagtail.users.models import UserProfile

from cms.translation.policy.roles import TRANSLATORS
from cms.translation.workflow.queue import QUEUE_LABELS, translation_queue


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
