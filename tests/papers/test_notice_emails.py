"""Editors hear of each new update notice by e-mail, once: after the sync's writes commit, every
active editor with an address, in their language; never twice for one notice, even when two
workers send at the same moment; a failed send gives the notices back for the next."""

import contextlib
import threading

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from wagtail.users.models import UserProfile

from cms.ops import background
from cms.papers import notices as notice_mail
from cms.papers.models import Paper, PaperNotice
from cms.papers.signals import notices_added
from cms.translation.policy.roles import EDITORS, TRANSLATORS, ensure_roles
from tests.support.factories import PaperFactory
from tests.support.notices import CONCERN, CORRECTION, RETRACTION, add_notice
from tests.support.users import member

REPORT_URL = "http://testserver/admin/reports/paper-notices/"


@pytest.fixture
def people(db):
    """Who may edit papers (an editor, a superuser) and who may not or cannot be mailed."""
    ensure_roles()
    User = get_user_model()
    found = {
        "editor": member(EDITORS, "editor", email="editor@example.com"),
        "boss": User.objects.create_superuser("boss", "boss@example.com", "pw"),
        "translator": member(TRANSLATORS, "translator", email="translator@example.com"),
        "no_address": member(EDITORS, "silent"),
        "gone": member(EDITORS, "gone", email="gone@example.com"),
    }
    found["gone"].is_active = False
    found["gone"].save()
    return found


@pytest.fixture
def paper(db):
    return PaperFactory(title="A Paper Someone Recommended", venue="SIGCOMM", year=2025)


@pytest.fixture
def background_here(monkeypatch):
    """The task runs in the test's thread (the thread hop is tested in tests/ops)."""
    monkeypatch.setattr(background, "run_in_background", background.run_here)


def sent_to(messages) -> list[str]:
    return sorted(address for message in messages for address in message.to)


@pytest.mark.usefixtures("background_here")
def test_a_new_notice_mails_each_editor_once_after_the_commit(
    people, paper, django_capture_on_commit_callbacks
):
    correction = add_notice(paper, CORRECTION)
    retraction = add_notice(paper, RETRACTION)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        notices_added.send(sender=Paper, notice_ids=[correction.pk, retraction.pk])
    assert mail.outbox == []  # nothing leaves before the sync's writes commit
    for callback in callbacks:
        callback()

    assert sent_to(mail.outbox) == ["boss@example.com", "editor@example.com"]
    message = mail.outbox[0]
    assert message.subject == "2 new update notices of papers"
    body = message.body
    assert body.index("Retraction, 2010-02-06 (Retraction Watch)") < body.index("Correction")
    assert "https://doi.org/10.1016/s0140-6736(10)60175-4" in body
    assert "A Paper Someone Recommended (SIGCOMM 2025)" in body
    assert REPORT_URL in body
    assert PaperNotice.objects.filter(notified_at__isnull=True).count() == 0

    # The same notices again (a retried task, the next sync): nothing more.
    with django_capture_on_commit_callbacks(execute=True):
        notices_added.send(sender=Paper, notice_ids=[correction.pk, retraction.pk])
    assert len(mail.outbox) == 2
    # A new one: only it.
    concern = add_notice(paper, CONCERN)
    with django_capture_on_commit_callbacks(execute=True):
        notices_added.send(sender=Paper, notice_ids=[retraction.pk, concern.pk])
    assert len(mail.outbox) == 4
    assert mail.outbox[-1].subject == "Expression of concern: A Paper Someone Recommended"
    assert "Retraction" not in mail.outbox[-1].body


def test_each_editor_reads_it_in_their_language(people, paper):
    profile = UserProfile.get_for_user(people["editor"])
    profile.preferred_language = "zh-hant"
    profile.save()
    notice = add_notice(paper, RETRACTION)
    assert notice_mail.email_editors([notice.pk]) == "sent 2"
    by_address = {message.to[0]: message for message in mail.outbox}
    chinese = by_address["editor@example.com"]
    assert chinese.subject == "撤稿：A Paper Someone Recommended"  # noqa: RUF001
    assert "同步程序找到這些論文新的更新通知" in chinese.body and REPORT_URL in chinese.body
    assert by_address["boss@example.com"].subject == "Retraction: A Paper Someone Recommended"


def test_a_failed_send_gives_the_notices_back(people, paper, monkeypatch):
    notice = add_notice(paper, RETRACTION)

    def fail(self, messages):
        raise OSError("the mail server is down")

    monkeypatch.setattr(mail.get_connection().__class__, "send_messages", fail)
    with pytest.raises(OSError):
        notice_mail.email_editors([notice.pk])
    notice.refresh_from_db()
    assert notice.notified_at is None
    monkeypatch.undo()
    later = add_notice(paper, CORRECTION)
    assert notice_mail.email_editors([later.pk]) == "sent 2"  # the earlier one comes along
    assert "Retraction" in mail.outbox[0].body


def test_without_editors_nothing_is_claimed_and_the_first_editor_hears_of_it(db, paper):
    notice = add_notice(paper, RETRACTION)
    assert notice_mail.email_editors([notice.pk]) == "no-editors"
    notice.refresh_from_db()
    assert notice.notified_at is None and mail.outbox == []
    ensure_roles()
    member(EDITORS, "editor", email="editor@example.com")
    later = add_notice(paper, CORRECTION)
    assert notice_mail.email_editors([later.pk]) == "sent 1"
    assert "Retraction" in mail.outbox[0].body and "Correction" in mail.outbox[0].body


@pytest.mark.django_db(transaction=True)
def test_two_workers_at_the_same_moment_mail_each_notice_once(
    committed_seed, people, paper, monkeypatch
):
    """Two tasks for overlapping notices, both past the recipients' query before either
    claims: every notice is in exactly one e-mail per editor. (Committed rows, as two workers
    see them; `committed_seed` leaves the seed for the tests that follow.)"""
    first, second, third = (add_notice(paper, n) for n in (RETRACTION, CORRECTION, CONCERN))
    ready = threading.Barrier(2, timeout=5)
    original = notice_mail.claim

    def claim(notice_ids):
        with contextlib.suppress(threading.BrokenBarrierError):
            ready.wait()
        return original(notice_ids)

    monkeypatch.setattr(notice_mail, "claim", claim)
    outcomes, errors = [], []

    def send(ids):
        from django.db import connection

        try:
            outcomes.append(notice_mail.email_editors(ids))
        except Exception as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    workers = [
        threading.Thread(target=send, args=([first.pk, second.pk],)),
        threading.Thread(target=send, args=([second.pk, third.pk],)),
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(30)
    assert errors == []
    # Each claims what the other has not: all three, or a share each.
    assert "sent 2" in outcomes and set(outcomes) <= {"sent 2", "nothing-new"}, outcomes

    for address in ("editor@example.com", "boss@example.com"):
        bodies = [m.body for m in mail.outbox if m.to == [address]]
        mentions = [
            sum(f"https://doi.org/{notice.notice_doi}" in body for body in bodies)
            for notice in (first, second, third)
        ]
        assert mentions == [1, 1, 1], (address, mentions)
    assert not PaperNotice.objects.filter(notified_at__isnull=True).exists()
