"""Fixtures of the API tests: GET helpers, on the views themselves."""

from __future__ import annotations

import pytest

from tests.support.content import PAGES_URL


@pytest.fixture(autouse=True)
def views_without_api_caches(uncached_api):
    """Exercise the views themselves (tests/apicache covers the caches)."""


@pytest.fixture
def api_get(client):
    """GET an API URL with query parameters; returns the response (JSON in `.json()`)."""

    def get(path: str = PAGES_URL, **params):
        return client.get(path, params, HTTP_HOST="testserver")

    return get


@pytest.fixture
def api_items(api_get):
    """GET a listing that must succeed; returns its items."""

    def items(path: str = PAGES_URL, **params):
        response = api_get(path, **params)
        assert response.status_code == 200, response.content
        return response.json()["items"]

    return items
