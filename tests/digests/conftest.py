"""Fixtures of the digests tests: the views themselves, without the API's caches."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def views_without_api_caches(uncached_api):
    """Exercise the views themselves (tests/apicache covers the caches)."""
