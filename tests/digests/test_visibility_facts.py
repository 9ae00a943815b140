"""The tree facts behind the public rules are shared per content version, and never stale.

Requests outside a transaction share one read of the view restrictions, unpublished branches and
site roots until the content version changes; the changes that alter them bump it on commit.
The suite runs each test inside a transaction, where the facts are never shared, so these tests
let the view share them as a web request would.
"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from wagtail.models import PageViewRestriction

from .conftest import DIGEST_TYPE, PAGES_URL, digest, topic_of

pytestmark = pytest.mark.django_db


def listed_ids(api_get) -> set[int]:
    response = api_get(PAGES_URL, type=DIGEST_TYPE, locale="en", limit=100)
    assert response.status_code == 200
    return {item["id"] for item in response.json()["items"]}


def restriction_queries(api_get) -> int:
    with CaptureQueriesContext(connection) as queries:
        listed_ids(api_get)
    return sum("wagtailcore_pageviewrestriction" in query["sql"] for query in queries)


def test_facts_are_read_once_per_content_version(shared_per_version, api_get):
    assert restriction_queries(api_get) == 1
    assert restriction_queries(api_get) == 0


def test_facts_are_not_shared_inside_a_transaction(api_get):
    assert restriction_queries(api_get) == 1
    assert restriction_queries(api_get) == 1


def test_unpublishing_a_topic_hides_its_digests_at_once(
    shared_per_version, api_get, django_capture_on_commit_callbacks
):
    page = digest("Odin")
    assert page.pk in listed_ids(api_get)  # facts read and shared
    with django_capture_on_commit_callbacks(execute=True):
        topic_of(page).unpublish()  # the page alone: its digests stay live
    assert page.pk not in listed_ids(api_get)


def test_a_new_view_restriction_hides_its_pages_at_once(
    shared_per_version, api_get, django_capture_on_commit_callbacks
):
    page = digest("Odin")
    assert page.pk in listed_ids(api_get)
    with django_capture_on_commit_callbacks(execute=True):
        PageViewRestriction.objects.create(
            page=topic_of(page), restriction_type=PageViewRestriction.LOGIN
        )
    assert page.pk not in listed_ids(api_get)
