"""The content version changes once the writing transaction commits, never before."""

import pytest
from django.core.cache import cache

from cms.api.version import (
    _set_new_version,
    bump_content_version,
    current_content_version,
)

pytestmark = pytest.mark.django_db


def _bumps(callbacks) -> int:
    return sum(1 for callback in callbacks if getattr(callback, "func", None) is _set_new_version)


def test_each_bump_outside_the_block_is_registered(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        bump_content_version()
        bump_content_version()
    assert _bumps(callbacks) == 2


def test_the_version_changes_only_at_commit(django_capture_on_commit_callbacks):
    cache.clear()
    before = current_content_version()
    with django_capture_on_commit_callbacks() as callbacks:
        bump_content_version()
        assert current_content_version() == before
    for callback in callbacks:
        callback()
    assert current_content_version() != before
