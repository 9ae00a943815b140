"""Celery tasks for papers: thin, they take ids and call one service."""

from __future__ import annotations

from celery import shared_task

from cms.ops.background import start_after_commit

from .notices import email_editors


@shared_task(name="papers.email_notices", ignore_result=True)
def email_notices_task(notice_ids: list[int]) -> str:
    """E-mail editors the new update notices among `notice_ids` (each notice once)."""
    return email_editors(notice_ids)


def on_notices_added(sender, notice_ids, **kwargs) -> None:
    """`notices_added` receiver: the e-mails go once the sync's writes commit, never from
    inside them (cms.ops.background)."""
    notice_ids = list(notice_ids)
    if notice_ids:
        start_after_commit(email_notices_task, notice_ids)
