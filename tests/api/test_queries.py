"""A list request costs the same few queries for 10 digests as for 100, in both languages."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.support.content import DIGEST_TYPE, TOPIC_TYPE

pytestmark = pytest.mark.django_db

MAX_QUERIES = 12


def count_queries(api_get, **params) -> tuple[int, int]:
    api_get(**params)  # warm per-process caches (site root paths, content types)
    with CaptureQueriesContext(connection) as queries:
        response = api_get(**params)
    assert response.status_code == 200, response.content
    return len(queries), len(response.json()["items"])


@pytest.mark.parametrize(
    ("params", "small", "large"),
    [
        ({"type": DIGEST_TYPE, "fields": "*"}, 10, 100),
        ({"type": DIGEST_TYPE, "fields": "*", "locale": "en"}, 10, 53),
        ({"type": DIGEST_TYPE, "fields": "*", "locale": "zh-hant"}, 10, 53),
        ({"type": TOPIC_TYPE, "fields": "*", "locale": "zh-hant"}, 2, 11),
        ({"fields": "*", "locale": "zh-hant"}, 10, 65),
        ({"type": DIGEST_TYPE, "fields": "*", "search": "a e", "search_operator": "or"}, 10, 100),
    ],
)
def test_list_queries_do_not_grow_with_limit(api_get, params, small, large):
    few, few_items = count_queries(api_get, limit=small, **params)
    many, many_items = count_queries(api_get, limit=large, **params)
    assert (few_items, many_items) == (small, large)
    assert few == many
    assert many <= MAX_QUERIES


@pytest.mark.parametrize("page_type", [DIGEST_TYPE, TOPIC_TYPE])
@pytest.mark.parametrize("locale", ["en", "zh-hant"])
def test_a_detail_costs_at_most_twelve_queries(api_get, client, page_type, locale):
    listed = api_get(type=page_type, locale=locale, limit=1).json()["items"][0]
    path = f"/api/v2/pages/{listed['id']}/"
    client.get(path)  # warm per-process caches (site root paths, content types)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(path)
    assert response.status_code == 200 and response.json()["id"] == listed["id"]
    assert len(queries) <= MAX_QUERIES, [query["sql"] for query in queries]
