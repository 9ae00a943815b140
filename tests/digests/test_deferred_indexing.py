"""The import indexes what it created once at the end, and leaves live indexing switched on."""

import pytest
from django.db import transaction
from wagtail.models import ReferenceIndex
from wagtail.search.backends import get_search_backend

from cms.digests.deferred_indexing import deferred_indexing, update_references
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


def _references(pages) -> list[tuple]:
    return sorted(
        ReferenceIndex.objects.filter(object_id__in=[str(page.pk) for page in pages]).values_list(
            "content_type",
            "base_content_type",
            "object_id",
            "to_content_type",
            "to_object_id",
            "model_path",
            "content_path",
            "content_path_hash",
        )
    )


class _RolledBack(Exception):
    pass


def test_batched_reference_update_equals_wagtails_per_object_update():
    """Added, kept and stale references come out as create_or_update_for_object leaves them."""
    pages = list(DigestPage.objects.filter(locale__language_code="en").order_by("path")[:4])
    other = Paper.objects.exclude(pk__in=[page.paper_id for page in pages]).first()
    DigestPage.objects.filter(pk=pages[0].pk).update(paper=other)  # one reference goes stale
    ReferenceIndex.objects.filter(object_id=str(pages[1].pk)).delete()  # one is missing
    try:
        with transaction.atomic():
            for page in DigestPage.objects.filter(pk__in=[page.pk for page in pages]):
                ReferenceIndex.create_or_update_for_object(page)
            expected = _references(pages)
            raise _RolledBack
    except _RolledBack:
        pass

    update_references(DigestPage, [page.pk for page in pages])

    assert _references(pages) == expected
    assert str(other.pk) in {row[4] for row in expected if row[2] == str(pages[0].pk)}
    assert str(pages[0].paper_id) not in {row[4] for row in expected if row[2] == str(pages[0].pk)}
