"""One content version bump per transaction for bulk writers, however many changes they make."""

import pytest
from django.core.cache import cache

from cms.apicache.version import (
    _set_new_version,
    bump_content_version,
    current_content_version,
    one_content_version_bump,
)

pytestmark = pytest.mark.django_db


def _bumps(callbacks) -> int:
    return sum(1 for callback in callbacks if callback is _set_new_version)


def test_each_bump_outside_the_block_is_registered(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        bump_content_version()
        bump_content_version()
    assert _bumps(callbacks) == 2


def test_bumps_inside_the_block_register_one(django_capture_on_commit_callbacks):
    cache.clear()
    before = current_content_version()
    with django_capture_on_commit_callbacks(execute=True) as callbacks, one_content_version_bump():
        for _ in range(5):
            bump_content_version()
    assert _bumps(callbacks) == 1
    assert current_content_version() != before


def test_a_block_without_bumps_registers_none(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks, one_content_version_bump():
        pass
    assert _bumps(callbacks) == 0


def test_a_block_left_by_an_error_registers_none(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks:
        with pytest.raises(RuntimeError), one_content_version_bump():
            bump_content_version()
            raise RuntimeError("rolled back")
        bump_content_version()  # and bumps after it are registered again
    assert _bumps(callbacks) == 1
