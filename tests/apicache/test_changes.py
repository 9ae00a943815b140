"""The changes feed (`/api/v2/changes/`): what each write did to a language's public pages.

A consumer replays the feed from the start, keeps its last cursor, and asks again later: it
must learn of exactly the pages whose API views changed, once each, with the right action, and
a replay must equal the pages the pages API lists. The log is written inside the writer's
transaction (cms.apicache.changes), so these tests read it before any commit.
"""

from __future__ import annotations

import base64
import threading
from collections import Counter

import pytest
from django.core.management import call_command
from django.db import connection, transaction
from wagtail.models import Page, PageViewRestriction

from cms.apicache import stale
from cms.apicache.models import PageChange
from cms.digests.models import DigestPage, TopicPage
from sync import services
from tests.support.content import DIGEST_TYPE, digest, topic_of, translation
from tests.support.factories import PUBLISHED, DigestPageFactory
from tests.support.upstream import serving_upstream
from tests.sync.recorded import recorded_catalog

pytestmark = pytest.mark.django_db

CHANGES = "/api/v2/changes/"
PAGES = "/api/v2/pages/"


@pytest.fixture(autouse=True)
def views_themselves(uncached_api):
    """No response cache: its version moves on commit, which a rolled-back test never has."""


def feed(client, **params) -> dict:
    response = client.get(CHANGES, params)
    assert response.status_code == 200, response.content
    return response.json()


def follow(client, locale: str = "en", since: str | None = None, **params) -> tuple[list, str]:
    """Every item from `since` (the start without it) to the end, and the cursor after them."""
    items: list[dict] = []
    while True:
        query = {"locale": locale, **params}
        if since is not None:
            query["since"] = since
        page = feed(client, **query)
        items += page["items"]
        since = page["meta"]["next"]
        if not page["meta"]["has_more"]:
            return items, since


def cursor_now(client, locale: str = "en") -> str:
    return follow(client, locale)[1]


def listed_pages(client, locale: str) -> set[int]:
    """What the pages API lists in `locale`, every type."""
    ids: set[int] = set()
    offset = 0
    while True:
        response = client.get(PAGES, {"locale": locale, "limit": 100, "offset": offset})
        data = response.json()
        ids |= {item["id"] for item in data["items"]}
        offset += 100
        if offset >= data["meta"]["total_count"]:
            return ids


def replayed(client, locale: str) -> set[int]:
    """The pages a consumer holds after replaying the whole feed: upserts in, deletes out."""
    held: set[int] = set()
    for item in follow(client, locale)[0]:
        if item["action"] == "upsert":
            held.add(item["id"])
        else:
            held.discard(item["id"])
    return held


def actions(items: list[dict]) -> dict[int, str]:
    counts = Counter(item["id"] for item in items)
    assert [pk for pk, n in counts.items() if n > 1] == [], "a page listed twice"
    return {item["id"]: item["action"] for item in items}


def edit_and_publish(page: DigestPage, title: str) -> None:
    page.title = title
    page.save_revision().publish()


# -- the scenario ------------------------------------------------------------------------


def test_seven_writes_are_seven_changes_and_a_replay_is_the_live_site(client):
    assert replayed(client, "en") == listed_pages(client, "en")
    cursor = cursor_now(client)
    first, second, third, fourth = list(TopicPage.objects.filter(locale__language_code="en"))[:4]
    edited = [first.get_children()[0], first.get_children()[1], second.get_children()[0]]
    unpublished = second.get_children()[1].specific
    deleted = third.get_children()[0].specific
    private = third.get_children()[1]
    for number, page in enumerate(edited):
        edit_and_publish(page.specific, f"Edited title {number}")
    unpublished.unpublish()
    deleted_id = deleted.pk
    deleted.delete()
    PageViewRestriction.objects.create(page=private, restriction_type=PageViewRestriction.LOGIN)
    new = DigestPageFactory(parent=fourth, title="A brand new digest", revision=PUBLISHED)

    items, _after = follow(client, since=cursor, type=DIGEST_TYPE)
    upserted = {page.pk for page in edited} | {new.pk}
    removed = {unpublished.pk, deleted_id, private.pk}
    assert actions(items) == {
        **dict.fromkeys(upserted, "upsert"),
        **dict.fromkeys(removed, "delete"),
    }
    by_id = {item["id"]: item for item in items}
    assert by_id[new.pk]["html_path"] == new.get_url()
    assert by_id[new.pk]["detail_url"] == f"http://testserver/api/v2/pages/{new.pk}/"
    assert by_id[new.pk]["type"] == DIGEST_TYPE and by_id[new.pk]["locale"] == "en"
    assert by_id[deleted_id]["html_path"].endswith("/")  # the address it had, kept

    # Without `type`, the topics whose `digests` changed are upserts too; still once each.
    every = actions(follow(client, since=cursor)[0])
    topics = {first.pk, second.pk, third.pk, fourth.pk}
    assert set(every) == upserted | removed | topics
    assert {every[pk] for pk in topics} == {"upsert"}

    # A consumer that applies them holds the live site; so does one that replays afresh.
    assert replayed(client, "en") == listed_pages(client, "en")
    assert replayed(client, "zh-hant") == listed_pages(client, "zh-hant")


def test_the_chinese_feed_has_the_translations_whose_status_changed(client):
    cursor = cursor_now(client, "zh-hant")
    page = digest("Odin")
    edit_and_publish(page, "Odin, edited")
    items = follow(client, "zh-hant", since=cursor, type=DIGEST_TYPE)[0]
    assert actions(items) == {translation(page, "zh-hant").pk: "upsert"}
    assert {item["locale"] for item in items} == {"zh-hant"}
    assert items[0]["html_path"].startswith("/zh-hant/")


def test_a_draft_is_no_change(client):
    cursor = cursor_now(client)
    page = digest("Odin")
    page.title = "Only a draft"
    page.save_revision()
    assert follow(client, since=cursor)[0] == []


# -- moves, privacy, sync, renames, imports ----------------------------------------------------


def test_a_move_under_an_unpublished_topic_deletes_and_back_upserts(client):
    page = digest("Odin")
    home, other = topic_of(page), TopicPage.objects.filter(locale=page.locale).last()
    other.unpublish()
    cursor = cursor_now(client)

    page.move(other, pos="last-child")
    items, cursor = follow(client, since=cursor, type=DIGEST_TYPE)
    assert actions(items) == {page.pk: "delete"}

    Page.objects.get(pk=page.pk).move(home, pos="last-child")
    items, _cursor = follow(client, since=cursor, type=DIGEST_TYPE)
    assert actions(items) == {page.pk: "upsert"}
    assert replayed(client, "en") == listed_pages(client, "en")


def test_a_private_topic_takes_its_digests_with_it_and_gives_them_back(client):
    topic = topic_of(digest("Odin"))
    children = set(topic.get_children().values_list("pk", flat=True))
    cursor = cursor_now(client)

    restriction = PageViewRestriction.objects.create(
        page=topic, restriction_type=PageViewRestriction.LOGIN
    )
    index = topic.get_parent().pk  # it lists its topics: an upsert either way
    items, cursor = follow(client, since=cursor)
    assert actions(items) == {**dict.fromkeys(children | {topic.pk}, "delete"), index: "upsert"}

    restriction.delete()
    items, _cursor = follow(client, since=cursor)
    assert actions(items) == dict.fromkeys(children | {topic.pk, index}, "upsert")


def test_a_topic_renamed_changes_its_digests(client):
    topic = topic_of(digest("Odin")).specific
    children = set(topic.get_children().values_list("pk", flat=True))
    cursor = cursor_now(client)
    topic.title, topic.slug = "Renamed topic", "renamed-topic"
    topic.save_revision().publish()
    items = follow(client, since=cursor, type=DIGEST_TYPE)[0]
    assert actions(items) == dict.fromkeys(children, "upsert")
    assert all(item["html_path"].startswith("/renamed-topic/") for item in items)


@pytest.fixture
def upstream(settings):
    """The stand-in for the four sources, answering from the recordings (tests/sync)."""
    yield from serving_upstream(recorded_catalog(), settings)


def test_a_paper_synced_changes_its_digests_in_both_languages(client, upstream):
    page = DigestPage.objects.get(locale__language_code="en", short_name="ByteScale")
    chinese = translation(page, "zh-hant")
    cursors = {locale: cursor_now(client, locale) for locale in ("en", "zh-hant")}
    outcome = services.sync_batch(paper_ids=[page.paper_id], run=None)
    assert outcome.changed == 1
    page.paper.refresh_from_db()
    assert page.paper.doi == "10.1145/3718958.3750471"  # the sync wrote the paper

    assert actions(follow(client, "en", since=cursors["en"])[0]) == {page.pk: "upsert"}
    assert actions(follow(client, "zh-hant", since=cursors["zh-hant"])[0]) == {chinese.pk: "upsert"}


def test_a_paper_on_no_public_digest_is_no_change(client):
    page = digest("Odin")
    page.unpublish()
    cursor = cursor_now(client)
    paper = page.paper
    paper.title = "A new title"
    paper.save()
    assert follow(client, since=cursor)[0] == []


def test_a_bulk_import_reconciles_every_page(client):
    cursor = cursor_now(client)
    with transaction.atomic(), stale.batched():
        new = DigestPageFactory(
            parent=topic_of(digest("Odin")), title="Imported", revision=PUBLISHED
        )
    items = follow(client, since=cursor)[0]
    assert set(actions(items)) == listed_pages(client, "en")
    assert new.pk in actions(items)
    assert len({item["changed_at"] for item in items}) == 1  # one write, one sequence number


# -- the feed itself -------------------------------------------------------------------------


def test_pages_of_one_write_share_a_number_and_page_through(client):
    """A rename reaches a topic and all its digests under one sequence number; small pages
    must still give each exactly once, in the order a large one does."""
    topic = topic_of(digest("Odin")).specific
    cursor = cursor_now(client)
    topic.title = "Renamed again"
    topic.save_revision().publish()
    whole = follow(client, since=cursor)[0]
    assert len(whole) >= 3
    paged = follow(client, since=cursor, limit=2)[0]
    assert paged == whole
    assert feed(client, locale="en", since=cursor, limit=2)["meta"]["has_more"] is True


def test_without_since_only_live_pages_are_listed(client):
    page = digest("Odin")
    page.unpublish()
    items = follow(client)[0]
    assert {item["action"] for item in items} == {"upsert"}
    assert page.pk not in {item["id"] for item in items}


def test_an_empty_answer_keeps_the_cursor(client):
    cursor = cursor_now(client)
    answer = feed(client, locale="en", since=cursor)
    assert answer == {"items": [], "meta": {"next": cursor, "has_more": False}}


NOT_NUMBERS = base64.urlsafe_b64encode(b"1:abc:x:2").decode()
OTHER_VERSION = base64.urlsafe_b64encode(b"2:abc:1:2").decode()


@pytest.mark.parametrize(
    "params, message",
    [
        ({}, "locale is required"),
        ({"locale": "fr"}, "locale 'fr' is not one of"),
        ({"locale": "en", "since": "not-a-cursor"}, "since is not a cursor of this feed"),
        ({"locale": "en", "since": NOT_NUMBERS}, "since is not a cursor of this feed"),
        ({"locale": "en", "since": OTHER_VERSION}, "since is not a cursor of this feed"),
        ({"locale": "en", "limit": "0"}, "limit must be between 1 and 100"),
        ({"locale": "en", "limit": "101"}, "limit must be between 1 and 100"),
        ({"locale": "en", "limit": "x"}, "limit must be a non-negative integer"),
        ({"locale": "en", "type": "digests.Nothing"}, "is not a page type"),
        ({"locale": "en", "offset": "2"}, "offset"),
    ],
)
def test_bad_parameters_are_400s(client, params, message):
    response = client.get(CHANGES, params)
    assert response.status_code == 400
    assert message in response.json()["message"]


def test_a_cursor_of_another_epoch_is_gone(client):
    cursor = cursor_now(client)
    call_command("rebuild_changes", "--new-epoch", verbosity=0)
    response = client.get(CHANGES, {"locale": "en", "since": cursor})
    assert response.status_code == 410
    assert response.json() == {"message": "the change log was rebuilt: start again without since"}
    assert replayed(client, "en") == listed_pages(client, "en")


def test_a_rebuild_without_a_new_epoch_keeps_cursors_and_writes_only_differences(client):
    cursor = cursor_now(client)
    PageChange.objects.filter(page_id=digest("Odin").pk).delete()  # a row lost somehow
    call_command("rebuild_changes", verbosity=0)
    assert actions(follow(client, since=cursor)[0]) == {digest("Odin").pk: "upsert"}


def test_the_rebuild_command_reports_progress(capsys):
    call_command("rebuild_changes")
    out = capsys.readouterr().out
    assert " pages read" in out and "Change log:" in out and "head cursor" in out


def test_a_response_is_one_query_whatever_the_site_s_size(client, django_assert_num_queries):
    cursor = cursor_now(client)
    edit_and_publish(digest("Odin"), "Odin again")
    with django_assert_num_queries(1):
        small = feed(client, locale="en", since=cursor, type=DIGEST_TYPE)
    topic = topic_of(digest("Odin"))
    for number in range(20):
        DigestPageFactory(parent=topic, title=f"More {number}", revision=PUBLISHED)
    with django_assert_num_queries(1):
        feed(client, locale="en", since=cursor, limit=5)
    assert len(small["items"]) == 1


def test_the_answer_is_public_and_in_the_feeds_language(client):
    response = client.get(CHANGES, {"locale": "zh-hant", "limit": 1})
    assert response["Content-Language"] == "zh-hant"
    assert "public" in response["Cache-Control"]


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="SQLite runs one writer at a time anyway"
)
@pytest.mark.django_db(transaction=True)
def test_a_reader_never_sees_a_later_write_before_an_earlier_one(committed_seed, client):
    """Two writers at once: the first has taken its number and not committed; the second
    must not commit its later number first, or a reader would skip the first for good."""
    first, second = digest("Odin"), digest("ByteScale")
    cursor = cursor_now(client)
    holding, release, second_done = threading.Event(), threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def write(page: DigestPage, title: str, hold: bool) -> None:
        try:
            with transaction.atomic():
                edit_and_publish(page, title)
                if hold:
                    holding.set()
                    release.wait(20)
            if not hold:
                second_done.set()
        except BaseException as error:  # reported by the test
            errors.append(error)
        finally:
            connection.close()

    one = threading.Thread(target=write, args=(first, "First writer", True))
    one.start()
    assert holding.wait(20)
    two = threading.Thread(target=write, args=(second, "Second writer", False))
    two.start()
    assert not second_done.wait(1), "the later write committed while the earlier one was open"
    assert feed(client, locale="en", since=cursor, type=DIGEST_TYPE)["items"] == []
    release.set()
    one.join(20)
    two.join(20)
    assert errors == []
    items = follow(client, since=cursor, type=DIGEST_TYPE)[0]
    assert [item["id"] for item in items] == [first.pk, second.pk]


def test_the_answers_are_as_the_api_description_says(conforms, client):
    cursor = cursor_now(client)
    edit_and_publish(digest("Odin"), "Odin, described")
    digest("ByteScale").unpublish()
    conforms(CHANGES, locale="en")
    answer = conforms(CHANGES, locale="zh-hant", since=cursor, limit=1).json()
    assert answer["items"] and answer["meta"]["has_more"] is True
    conforms(CHANGES, locale="en", since=cursor, type=DIGEST_TYPE)
    conforms(CHANGES, 400, locale="en", since="nope")
    conforms(CHANGES, 400)
    call_command("rebuild_changes", "--new-epoch", verbosity=0)
    conforms(CHANGES, 410, locale="en", since=cursor)
