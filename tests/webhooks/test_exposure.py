"""Webhook payloads name only what the public API shows: a page an anonymous reader is not
shown (a draft, a scheduled page, a page in a private or unpublished topic, a private page)
sends no page event, so its title, slug and address never reach a subscriber; a paper event
lists only the digests the API shows."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone
from wagtail.models import PageViewRestriction

from cms.digests.models import DigestPage, TopicPage
from cms.webhooks.models import EVENT_TYPES, Delivery, Endpoint
from tests.support.factories import (
    DRAFT,
    PUBLISHED,
    DigestPageFactory,
    PaperAuthorFactory,
    PaperFactory,
)

pytestmark = pytest.mark.django_db

SECRET = "Unannounced acquisition"


@pytest.fixture(autouse=True)
def endpoint():
    """An endpoint for every event; payloads are read from the stored deliveries."""
    return Endpoint.objects.create(
        url="https://hooks.example.org/", events=[kind for kind, _ in EVENT_TYPES]
    )


def sent() -> str:
    return json.dumps([d.payload for d in Delivery.objects.all()], ensure_ascii=False)


def topics() -> list[TopicPage]:
    return list(TopicPage.objects.filter(locale__language_code="en").live().order_by("path"))


def new_digest(topic: TopicPage, *, publish: bool = True, **fields) -> DigestPage:
    return DigestPageFactory(  # not live until published, as the admin's create view makes it
        parent=topic,
        title=SECRET,
        slug="unannounced",
        short_name="Secret",
        reading_minutes=3,
        summary="x",
        live=False,
        revision=PUBLISHED if publish else DRAFT,
        **{f"revision__{name}": value for name, value in fields.items()},
    )


def restrict(page) -> None:
    PageViewRestriction.objects.create(page=page, restriction_type=PageViewRestriction.LOGIN)


def test_publishing_in_a_private_topic_sends_nothing():
    topic = topics()[0]
    restrict(topic)
    new_digest(topic)
    assert SECRET not in sent()


def test_publishing_below_an_unpublished_topic_sends_nothing():
    topic = topics()[0]
    topic.unpublish()
    new_digest(topic)
    assert SECRET not in sent()


def test_scheduling_a_first_publish_sends_nothing():
    page = new_digest(topics()[0], go_live_at=timezone.now() + timedelta(days=2))
    assert not DigestPage.objects.get(pk=page.pk).live
    assert SECRET not in sent()


def test_moving_or_deleting_a_draft_sends_nothing():
    first, second = topics()[:2]
    page = new_digest(first, publish=False)
    page.move(second, pos="last-child")
    DigestPage.objects.get(pk=page.pk).delete()
    assert SECRET not in sent()


def test_unpublishing_or_deleting_a_private_page_sends_nothing():
    page = new_digest(topics()[0])
    restrict(page)
    Delivery.objects.all().delete()  # its publish, while it was public
    page.unpublish()
    DigestPage.objects.get(pk=page.pk).delete()
    assert SECRET not in sent()


def test_a_page_moved_into_a_private_topic_is_still_announced():
    """Its title was public until the move: the front end must hear that it is gone."""
    first, second = topics()[:2]
    restrict(second)
    page = DigestPage.objects.child_of(first).live().first()
    page.move(second, pos="last-child")
    moved = [d.payload["data"]["page"]["id"] for d in Delivery.objects.all()]
    assert page.pk in moved


def test_a_paper_event_lists_only_the_digests_the_api_shows():
    topic = topics()[0]
    shown = DigestPage.objects.child_of(topic).live().first()
    hidden = new_digest(topics()[1], paper=shown.paper)
    topics()[1].unpublish()  # its digests stay live below it
    Delivery.objects.all().delete()
    shown.paper.title = "Renamed"
    shown.paper.save()
    digests = [
        d["id"]
        for delivery in Delivery.objects.filter(event_type="paper.updated")
        for d in delivery.payload["data"]["digests"]
    ]
    assert shown.pk in digests and hidden.pk not in digests


def test_a_paper_only_a_draft_shows_sends_no_paper_event():
    """The papers API hides such a paper and its authors; so must its events."""

    paper = PaperFactory(title=SECRET, venue="NSDI", year=2026)
    PaperAuthorFactory(paper=paper, name="Ada Unlisted", sort_order=0)
    new_digest(topics()[0], publish=False, paper=paper)
    paper.title = f"{SECRET}, revised"
    paper.save()
    assert SECRET not in sent() and "paper.updated" not in sent()


def test_sync_finished_names_no_member_of_staff():
    """The run list shows staff who pressed Sync now ("admin:<username>"); subscribers are told
    only that it was started from the admin."""
    from cms.papers.models import Paper
    from cms.translation.policy.roles import EDITORS
    from sync import runs
    from tests.support.users import member

    editor = member(EDITORS, "dana.lin")
    paper = Paper.objects.first()
    run, started = runs.run_start_for_paper(paper_id=paper.pk, trigger=f"admin:{editor}")
    assert started
    runs.announce_end(run)

    (delivery,) = Delivery.objects.filter(event_type="sync.finished")
    assert delivery.payload["data"]["run"]["trigger"] == "admin"
    assert editor.get_username() not in sent()
