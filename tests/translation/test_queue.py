"""The translator's queue: new and changed English pages reach translators, who start drafts."""

from urllib.parse import urlencode

import pytest
from django.contrib.messages import get_messages
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from wagtail.models import Page
from wagtail_localize.models import Translation

from cms.digests.models import DigestPage, TopicPage
from cms.translation.status.statuses import translation_status
from cms.translation.workflow.queue import (
    CHANGES_NOT_PUBLISHED,
    NOT_PUBLISHED,
    NOT_TRANSLATED,
    OUT_OF_DATE,
    TO_REVIEW,
    UP_TO_DATE,
    open_translation,
    queue_state,
    translation_queue,
)
from tests.support.factories import PUBLISHED, DigestPageFactory, TopicPageFactory, add_draft_digest

pytestmark = pytest.mark.django_db


def publish_new_digest(topic: TopicPage, slug: str = "queue-test", **fields) -> DigestPage:
    """An editor's new English digest under `topic`, published."""
    digest = DigestPageFactory(
        parent=topic,
        title=fields.pop("title", "QueueBench: a new digest"),
        slug=slug,
        short_name="QueueBench",
        reading_minutes=4,
        summary=fields.pop("summary", "What QueueBench measures."),
        revision=PUBLISHED,
        **fields,
    )
    digest.refresh_from_db()
    return digest


@pytest.fixture
def topic_en(digest_en):
    return digest_en.get_parent().specific


@pytest.fixture
def new_digest(topic_en):
    return publish_new_digest(topic_en)


def open_url(page: Page) -> str:
    return reverse("translation_queue_open", args=[page.pk])


def test_the_seeded_site_has_an_empty_queue(db):
    assert list(translation_queue()) == []


def test_a_new_english_page_heads_the_queue_untranslated(new_digest, topic_en):
    older = publish_new_digest(topic_en, slug="older", title="Older digest")
    older.last_published_at = new_digest.last_published_at.replace(year=2020)
    older.save(update_fields=["last_published_at"])

    queue = list(translation_queue())

    assert [page.pk for page in queue] == [new_digest.pk, older.pk]
    assert queue[0].queue_state == NOT_TRANSLATED
    assert queue[0].translation_id is None


def test_translators_dashboard_and_report_list_it_with_one_action(client, translator, new_digest):
    client.force_login(translator)

    dashboard = client.get(reverse("wagtailadmin_home")).content.decode()
    report = client.get(reverse("translation_queue")).content.decode()

    for html in (dashboard, report):
        assert new_digest.title in html
        assert html.count(f'action="{open_url(new_digest)}"') == 1
        assert "Start translation" in html


def test_editors_see_no_queue_and_cannot_start_a_translation(client, editor, new_digest, zh_locale):
    client.force_login(editor)

    assert new_digest.title not in client.get(reverse("wagtailadmin_home")).content.decode()
    # Wagtail's admin answers a refusal with a redirect to the dashboard and a message.
    assert client.get(reverse("translation_queue")).url == reverse("wagtailadmin_home")
    assert client.post(open_url(new_digest)).url == reverse("wagtailadmin_home")
    assert new_digest.get_translation_or_none(zh_locale) is None


def test_anonymous_post_creates_nothing(client, new_digest, zh_locale):
    response = client.post(open_url(new_digest))

    assert response.status_code in (302, 403)
    assert new_digest.get_translation_or_none(zh_locale) is None


def test_starting_makes_a_draft_and_opens_the_translation_editor(
    client, translator, new_digest, zh_locale
):
    client.force_login(translator)
    assert not new_digest.permissions_for_user(translator).can_edit()

    response = client.post(open_url(new_digest))

    zh_page = new_digest.get_translation(zh_locale)
    assert response.status_code == 302
    assert response.url == reverse("wagtailadmin_pages:edit", args=[zh_page.pk])
    assert not zh_page.live
    assert Translation.objects.get(
        source__object_id=new_digest.translation_key, target_locale=zh_locale
    ).enabled
    assert queue_state(new_digest) == NOT_PUBLISHED
    editor_page = client.get(response.url)
    assert editor_page.status_code == 200
    assert b"editTranslation" in editor_page.content or b"wagtail_localize" in editor_page.content
    # Nothing of it reaches the zh-hant API.
    listing = client.get("/api/v2/pages/", {"locale": "zh-hant", "type": "digests.DigestPage"})
    assert zh_page.pk not in [item["id"] for item in listing.json()["items"]]


def test_starting_twice_creates_one_translation(client, translator, new_digest, zh_locale):
    client.force_login(translator)
    first = client.post(open_url(new_digest))
    second = client.post(open_url(new_digest))

    assert first.url == second.url
    assert DigestPage.objects.filter(translation_key=new_digest.translation_key).count() == 2


def test_a_digest_under_a_new_topic_gets_its_topic_as_a_draft_too(
    client, translator, digest_en, zh_locale
):
    index = digest_en.get_parent().get_parent()
    topic = TopicPageFactory(
        parent=index, title="Queue topic", slug="queue-topic", intro="Intro.", revision=PUBLISHED
    )
    digest = publish_new_digest(topic, slug="under-new-topic")
    client.force_login(translator)

    client.post(open_url(digest))

    zh_topic = topic.get_translation(zh_locale)
    zh_digest = digest.get_translation(zh_locale)
    assert zh_digest.get_parent().pk == zh_topic.pk
    assert not zh_topic.live and not zh_digest.live


def test_get_is_refused(client, translator, new_digest, zh_locale):
    client.force_login(translator)

    assert client.get(open_url(new_digest)).status_code == 405
    assert new_digest.get_translation_or_none(zh_locale) is None


def test_post_without_csrf_token_is_refused(translator, new_digest, zh_locale):
    client = Client(enforce_csrf_checks=True)
    client.force_login(translator)

    assert client.post(open_url(new_digest)).status_code == 403
    assert new_digest.get_translation_or_none(zh_locale) is None


def test_the_site_root_is_not_translated_here(client, translator, digest_en):
    client.force_login(translator)
    index = digest_en.get_parent().get_parent()

    response = client.post(open_url(index), {"next": reverse("translation_queue")})

    assert response.status_code == 302
    assert response.url == reverse("translation_queue")


def test_a_changed_page_is_out_of_date_and_the_live_translation_keeps_its_text(
    client, translator, digest_en, digest_zh
):
    old_zh_summary = digest_zh.specific.summary
    assert queue_state(digest_en) == UP_TO_DATE
    digest_en.summary = "A changed English summary."
    digest_en.save_revision().publish()

    assert queue_state(digest_en) == OUT_OF_DATE
    client.force_login(translator)
    report = client.get(reverse("translation_queue")).content.decode()
    assert digest_en.title in report and "Update translation" in report

    response = client.post(open_url(digest_en))

    assert response.url == reverse("wagtailadmin_pages:edit", args=[digest_zh.pk])
    digest_zh.refresh_from_db()
    assert digest_zh.live and digest_zh.specific.summary == old_zh_summary
    # Synced, not yet published: still waiting for the translator.
    assert queue_state(digest_en) == OUT_OF_DATE


def test_publishing_the_translation_takes_the_page_off_the_queue(
    translator, digest_en, digest_zh, django_capture_on_commit_callbacks
):
    digest_en.save_revision().publish()
    assert queue_state(digest_en) == OUT_OF_DATE
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )
    translation.source.update_from_db()
    with django_capture_on_commit_callbacks(execute=True):  # wagtail-localize publishes then
        translation.save_target(user=translator, publish=True)

    assert queue_state(digest_en) == UP_TO_DATE


def test_a_saved_but_unpublished_translation_stays_in_the_queue(digest_en, digest_zh):
    zh = digest_zh.specific
    zh.summary = "草稿中的摘要。"
    zh.save_revision()

    assert queue_state(digest_en) == CHANGES_NOT_PUBLISHED


def test_the_report_costs_the_same_for_one_page_or_many(client, translator, topic_en):
    client.force_login(translator)
    publish_new_digest(topic_en, slug="one")
    client.get(reverse("translation_queue"))  # warm Wagtail's per-process caches
    one = queries_to_show(client, "translation_queue")
    for number in range(5):
        publish_new_digest(topic_en, slug=f"more-{number}", title=f"More {number}")
    assert queries_to_show(client, "translation_queue") == one


@pytest.mark.parametrize("role", ["translator", "editor"])
def test_the_status_report_costs_the_same_for_few_rows_or_many(client, request, role, topic_en):
    """Untranslated English rows and zh-hant rows the user may not edit cost no query each."""
    translator = request.getfixturevalue("translator")
    client.force_login(request.getfixturevalue(role))

    def add_rows(count: int, prefix: str) -> None:
        for number in range(count):
            digest = publish_new_digest(
                topic_en, slug=f"{prefix}-{number}", title=f"{prefix} {number}"
            )
            if number % 2:
                open_translation(page=digest, user=translator)

    add_rows(2, "few")
    client.get(reverse("translation_status_report"))  # warm Wagtail's per-process caches
    few = queries_to_show(client, "translation_status_report")
    add_rows(6, "many")
    assert queries_to_show(client, "translation_status_report") == few


def queries_to_show(client, url_name: str) -> int:
    """The queries one admin screen sends (it must answer 200)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse(url_name))
    assert response.status_code == 200
    return len(captured)


def test_the_translation_status_report_leads_translators_to_the_queue(client, translator, editor):
    queue_link = f'href="{reverse("translation_queue")}"'
    client.force_login(translator)
    assert queue_link in client.get(reverse("translation_status_report")).content.decode()
    client.force_login(editor)
    assert queue_link not in client.get(reverse("translation_status_report")).content.decode()


def test_an_unpublished_english_page_is_not_translated(client, translator, topic_en, zh_locale):
    draft = add_draft_digest(topic_en, "Draft digest", short_name="D", summary="S")
    client.force_login(translator)

    response = client.post(open_url(draft))

    assert response.url == reverse("translation_queue")
    notices = [str(message) for message in get_messages(response.wsgi_request)]
    assert notices == ["“Draft digest” is not published yet."]
    assert draft.get_translation_or_none(zh_locale) is None


def test_the_status_report_lists_a_new_english_page_as_not_translated(
    client, translator, editor, new_digest
):
    url = reverse("translation_status_report")
    client.force_login(translator)

    response = client.get(url)

    rows = list(response.context["object_list"])
    assert rows[0].pk == new_digest.pk  # untranslated pages first
    assert rows[0].translation_status is None
    html = response.content.decode()
    assert html.count(f'action="{open_url(new_digest)}"') == 1
    assert reverse("wagtailadmin_pages:edit", args=[new_digest.pk]) not in html
    client.force_login(editor)
    html = client.get(url).content.decode()
    assert new_digest.title in html and open_url(new_digest) not in html


def test_a_started_translation_is_listed_once_in_the_status_report(
    client, translator, new_digest, zh_locale
):
    client.force_login(translator)
    client.post(open_url(new_digest))
    zh_page = new_digest.get_translation(zh_locale)

    rows = list(client.get(reverse("translation_status_report")).context["object_list"])

    keys = [row.pk for row in rows]
    assert zh_page.pk in keys and new_digest.pk not in keys


def publish_in_translation_editor(client, page: Page, capture) -> None:
    """Publish, confirming any texts nobody reviewed (asked first: test_guard_hook)."""
    with capture(execute=True):  # wagtail-localize publishes on commit
        response = client.post(
            reverse("wagtailadmin_pages:edit", args=[page.pk]),
            {"action": "publish", "confirm-unreviewed": "1"},
        )
    assert response.status_code == 302


def queue_row(client, page: Page) -> str:
    """The report's row for `page` ('' when it is not listed)."""
    html = client.get(reverse("translation_queue")).content.decode()
    rows = [row for row in html.split("<tr") if f'action="{open_url(page)}"' in row]
    return rows[0] if rows else ""


def test_unreviewed_previous_translations_keep_a_live_page_in_the_queue_until_published(
    client, translator, digest_en, digest_zh, django_capture_on_commit_callbacks
):
    """A sync prefills the changed summary with its previous translation; publishing it
    unreviewed puts it live, and the queue asks for a review until a reviewed text is live."""
    capture = django_capture_on_commit_callbacks
    digest_en.summary = "A changed English summary."
    digest_en.save_revision().publish()
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )
    client.force_login(translator)
    client.post(reverse("wagtail_localize:update_translations", args=[translation.source_id]), {})
    publish_in_translation_editor(client, digest_zh, capture)

    digest_zh.refresh_from_db()
    assert digest_zh.live and not digest_zh.has_unpublished_changes
    assert translation_status(digest_zh).machine_segments == 1
    assert queue_state(digest_en) == TO_REVIEW
    row = queue_row(client, digest_en)
    assert "Machine or previous translations to review" in row and "Review translation" in row
    dashboard = client.get(reverse("wagtailadmin_home")).content.decode()
    assert "Machine or previous translations to review" in dashboard

    # Reviewed in the editor (the translator saves the text), not yet published: still waiting.
    segment = translation.source.stringsegment_set.get(context__path="summary")
    response = client.put(
        reverse("wagtail_localize:edit_string_translation", args=[translation.pk, segment.pk]),
        data=urlencode({"value": "改寫後、已審閱的摘要。"}),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    assert translation_status(digest_zh).machine_segments == 0
    assert queue_state(digest_en) == CHANGES_NOT_PUBLISHED

    publish_in_translation_editor(client, digest_zh, capture)

    digest_zh.refresh_from_db()
    assert digest_zh.specific.summary == "改寫後、已審閱的摘要。"
    assert queue_state(digest_en) == UP_TO_DATE
    assert queue_row(client, digest_en) == ""
