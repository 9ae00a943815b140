"""The import indexes what it created once at the end, and leaves live indexing switched on."""

import pytest
from wagtail.models import ReferenceIndex
from wagtail.search.backends import get_search_backend

from cms.digests.deferred_indexing import deferred_indexing
from cms.digests.models import DigestPage
from cms.papers.models import Paper

pytestmark = pytest.mark.django_db


def search_papers(term: str) -> list[Paper]:
    return list(get_search_backend().search(term, Paper))


def test_imported_pages_are_in_the_search_index():
    digest = DigestPage.objects.live().filter(locale__language_code="en").first()
    found = DigestPage.objects.live().search(digest.short_name)
    assert digest.pk in [page.pk for page in found]


def test_imported_pages_are_in_the_reference_index():
    digest = DigestPage.objects.live().filter(locale__language_code="en").first()
    usage = ReferenceIndex.get_references_to(digest.paper)
    assert digest.pk in {int(reference.object_id) for reference in usage}


def test_saves_inside_the_block_are_indexed_on_leaving_it():
    with deferred_indexing():
        paper = Paper.objects.create(title="Deferredly indexed quasar", venue="NSDI", year=2025)
        assert search_papers("quasar") == []
    assert search_papers("quasar") == [paper]


def test_live_indexing_is_back_after_the_block():
    with deferred_indexing():
        pass
    paper = Paper.objects.create(title="Immediately indexed pulsar", venue="NSDI", year=2025)
    assert search_papers("pulsar") == [paper]
