"""Translators hear of published English pages by email, at most once per page per hour."""

import time

import pytest
from django.core import mail
from django.core.cache import cache
from wagtail.users.models import UserProfile

from cms.ops import background
from cms.translation.workflow.notifications import notify_translators
from tests.support.workers import wait_for

from .test_queue import publish_new_digest

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def no_earlier_notices():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def background_here(monkeypatch):
    """The notice runs in the test's thread, where the test's uncommitted pages are seen: the
    thread hop itself is cms.ops.background's, tested in tests/ops/test_background.py."""
    monkeypatch.setattr(background, "run_in_background", background.run_here)


@pytest.fixture
def topic_en(digest_en):
    return digest_en.get_parent().specific


def publish(page, capture, **changes):
    for name, value in changes.items():
        setattr(page, name, value)
    with capture(execute=True) as callbacks:
        page.save_revision().publish()
    return callbacks


@pytest.mark.usefixtures("background_here")
def test_a_new_english_page_emails_each_translator_after_the_commit(
    translator, editor, topic_en, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        digest = publish_new_digest(topic_en)
    assert mail.outbox == []  # nothing leaves before the commit

    for callback in callbacks:
        callback()

    assert [message.to for message in mail.outbox] == [[translator.email]]
    message = mail.outbox[0]
    assert digest.title in message.subject
    assert "http://testserver/admin/reports/translation-queue/" in message.body
    assert "Not translated" in message.body


def test_with_the_broker_down_a_publish_still_notifies_from_this_process(
    committed_seed, translator, editor, topic_en, unreachable_broker
):
    """The publish has committed: the notice is sent from a background thread of this process
    rather than the save failing."""
    digest = publish_new_digest(topic_en)
    wait_for(lambda: mail.outbox, 30, "the notice")
    assert [message.to for message in mail.outbox] == [[translator.email]]
    assert digest.title in mail.outbox[0].subject


@pytest.mark.usefixtures("background_here")
def test_at_most_once_per_page_per_hour(
    translator, topic_en, settings, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    settings.TRANSLATION_NOTICE_INTERVAL = 1
    with capture(execute=True):
        digest = publish_new_digest(topic_en)
    publish(digest, capture, summary="Changed once.")
    publish(digest, capture, summary="Changed twice.")
    assert len(mail.outbox) == 1

    with capture(execute=True):
        other = publish_new_digest(topic_en, slug="another", title="Another digest")
    assert mail.outbox[1].subject.endswith(other.title)

    time.sleep(1.1)  # the interval has passed
    publish(digest, capture, summary="Changed a third time.")
    assert len(mail.outbox) == 3
    assert digest.title in mail.outbox[2].subject


@pytest.mark.usefixtures("background_here")
def test_a_change_to_a_translated_page_is_announced_once(
    translator, digest_en, django_capture_on_commit_callbacks
):
    publish(digest_en, django_capture_on_commit_callbacks, summary="A changed summary.")
    publish(digest_en, django_capture_on_commit_callbacks, summary="Changed again.")

    assert len(mail.outbox) == 1
    assert "Out of date" in mail.outbox[0].body


@pytest.mark.usefixtures("background_here")
def test_no_email_for_chinese_pages_or_the_site_root(
    translator, digest_en, digest_zh, django_capture_on_commit_callbacks
):
    publish(digest_zh.specific, django_capture_on_commit_callbacks)
    publish(digest_en.get_parent().get_parent().specific, django_capture_on_commit_callbacks)

    assert mail.outbox == []
    assert notify_translators([digest_zh.pk]) == "not-waiting"


def test_an_up_to_date_page_sends_nothing(translator, digest_en):
    assert notify_translators([digest_en.pk]) == "not-waiting"
    assert mail.outbox == []


@pytest.mark.usefixtures("background_here")
def test_inactive_translators_and_those_without_an_address_are_skipped(
    translator, roles, topic_en, django_user_model, django_capture_on_commit_callbacks
):
    from cms.translation.policy.roles import TRANSLATORS

    for username, email, active in (("away", "away@example.com", False), ("noaddress", "", True)):
        user = django_user_model.objects.create_user(username, email, "pw", is_active=active)
        user.groups.add(roles[TRANSLATORS])

    with django_capture_on_commit_callbacks(execute=True):
        publish_new_digest(topic_en)

    assert [message.to for message in mail.outbox] == [[translator.email]]


@pytest.mark.usefixtures("background_here")
def test_the_email_is_in_the_translators_admin_language(
    translator, topic_en, django_capture_on_commit_callbacks
):
    profile = UserProfile.get_for_user(translator)
    profile.preferred_language = "zh-hant"
    profile.save()

    with django_capture_on_commit_callbacks(execute=True):
        digest = publish_new_digest(topic_en)

    assert mail.outbox[0].subject == f"等待翻譯：{digest.title}"  # noqa: RUF001


@pytest.mark.usefixtures("background_here")
def test_pages_published_together_make_one_email(
    translator, topic_en, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        first = publish_new_digest(topic_en, slug="first", title="First digest")
        second = publish_new_digest(topic_en, slug="second", title="Second digest")

    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "2 pages waiting for translation"
    assert first.title in mail.outbox[0].body and second.title in mail.outbox[0].body


def test_many_pages_are_read_in_chunks_and_listed_newest_first(translator, topic_en, monkeypatch):
    from cms.translation.workflow import notifications

    monkeypatch.setattr(notifications, "ID_CHUNK", 2)
    pages = [
        publish_new_digest(topic_en, slug=f"chunk-{number}", title=f"Chunk {number}")
        for number in range(5)
    ]

    assert notify_translators([page.pk for page in pages]) == "sent 1"
    body = mail.outbox[0].body
    positions = [body.index(f"Chunk {number} ") for number in range(5)]
    assert positions == sorted(positions, reverse=True)  # the last published comes first


@pytest.mark.usefixtures("background_here")
def test_a_notice_the_mail_server_refused_is_sent_with_the_next_publish(
    translator, topic_en, monkeypatch, django_capture_on_commit_callbacks
):
    """A failed send announced nothing: it must not count as this hour's notice."""
    from django.core.mail.backends.locmem import EmailBackend

    def refuse(self, messages):
        raise ConnectionRefusedError("mail server down")

    capture = django_capture_on_commit_callbacks
    with monkeypatch.context() as patched:
        patched.setattr(EmailBackend, "send_messages", refuse)
        with capture(execute=True):
            digest = publish_new_digest(topic_en)
    assert mail.outbox == []

    publish(digest, capture, summary="Changed once the mail server is back.")
    assert len(mail.outbox) == 1
    assert digest.title in mail.outbox[0].subject
