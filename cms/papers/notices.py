"""Tell editors by e-mail of each new update notice (a retraction, a correction...), once.

The sync worker sends `notices_added` with the ids of the notices it stored; cms.papers.tasks
starts `email_editors` after that commit (cms.ops.background). Each notice is mailed once,
however many workers run this for it at the same time (a task retried after a lost worker, two
syncs): a notice is claimed by one UPDATE of its row where `notified_at` is still empty, which
the database grants to one writer only, and only the notices a call claimed are in its e-mails.
A failed send gives its claims back, and each call also takes any notice left unmailed before
(a failed send, a time without editors), so the next notice brings them along.

Recipients are the active users with an e-mail address who may edit papers
(`papers.change_paper`, superusers included): they are who can act on the paper's digests.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import mail
from django.db.models import QuerySet
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from wagtail.users.models import UserProfile

from .models import PaperNotice
from .notice_types import by_seriousness, notice_url, type_label

PERMISSION = "papers.change_paper"
# with_perm needs the backend named when several are configured (django-axes' is first).
PERMISSION_BACKEND = "django.contrib.auth.backends.ModelBackend"


def editors() -> QuerySet:
    """Active users with an e-mail address who may edit papers."""
    return (
        get_user_model()
        .objects.with_perm(
            PERMISSION, is_active=True, include_superusers=True, backend=PERMISSION_BACKEND
        )
        .exclude(email="")
        .order_by("pk")
    )


def claim(notice_ids: Iterable[int]) -> list[int]:
    """The notices among `notice_ids` this call is the first to mail: each row's `notified_at`
    is set only where it is empty, one UPDATE per row, so of two concurrent calls exactly one
    gets each notice."""
    now = timezone.now()
    return [
        pk
        for pk in sorted(set(notice_ids))
        if PaperNotice.objects.filter(pk=pk, notified_at__isnull=True).update(notified_at=now)
    ]


def release(notice_ids: list[int]) -> None:
    """Give claims back after a failed send, for the next call to mail them."""
    PaperNotice.objects.filter(pk__in=notice_ids).update(notified_at=None)


def notice_rows(notices: list[PaperNotice]) -> list[dict]:
    """What an e-mail says of each notice, the most serious first (cms.papers.notice_types)."""
    rows = [
        {
            "type": notice.update_type,
            "label": str(type_label(notice.update_type, notice.label)),
            "paper": notice.paper,
            "source": notice.get_source_display(),
            "date": notice.updated_on.isoformat() if notice.updated_on else "",
            "url": notice_url(notice.notice_doi),
        }
        for notice in notices
    ]
    return by_seriousness(rows)


def email_editors(notice_ids: list[int]) -> str:
    """E-mail every editor the notices among `notice_ids`, and any other, that no one was told
    of yet: one e-mail per editor, in their admin language. Returns a short status:
    "no-editors", "nothing-new" (every notice claimed before, or gone), or "sent N" (e-mails)."""
    recipients = list(editors())
    if not recipients:
        return "no-editors"  # nothing claimed: the first editor hears of them with the next
    unmailed = PaperNotice.objects.filter(notified_at__isnull=True).values_list("pk", flat=True)
    claimed = claim({*notice_ids, *unmailed})
    if not claimed:
        return "nothing-new"
    notices = list(
        PaperNotice.objects.filter(pk__in=claimed).select_related("paper").order_by("pk")
    )
    report_url = settings.WAGTAILADMIN_BASE_URL.rstrip("/") + reverse("papers_notices_report")
    messages = []
    for user in recipients:
        language = UserProfile.get_for_user(user).get_preferred_language()
        with translation.override(language):
            context = {"rows": notice_rows(notices), "report_url": report_url}
            subject = render_to_string("papers/email/notices_subject.txt", context)
            body = render_to_string("papers/email/notices_body.txt", context)
        messages.append(mail.EmailMessage(" ".join(subject.split()), body, to=[user.email]))
    try:
        sent = mail.get_connection().send_messages(messages)
    except Exception:
        release(claimed)
        raise
    return f"sent {sent}"
