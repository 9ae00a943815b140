"""A segment's place named as a person reads it, in the admin's language."""

import json

import pytest
from django.utils import translation

from cms.digests.models import DigestPage
from cms.translation.guard.places import SEPARATOR, place_label
from tests.support.factories import DigestPageFactory

pytestmark = pytest.mark.django_db  # a page's default locale is read from the database


def item(value, item_id: str) -> dict:
    return {"type": "item", "value": value, "id": item_id}


def page() -> DigestPage:
    """A digest whose body is stored data, block and list item ids as wagtail-localize sees."""
    rows = [item([item("1", "c11"), item("2", "c12")], "r1"), item([item("3", "c21")], "r2")]
    table = {"caption": "", "header": [item("A", "hA"), item("B", "hB")], "rows": rows}
    digest = DigestPageFactory.build(title="T", summary="S")
    digest.body = json.dumps(
        [
            {"type": "paragraph", "value": "<p>One</p>", "id": "p1"},
            {"type": "heading", "value": {"text": "Results", "level": "h2"}, "id": "h1"},
            {"type": "paragraph", "value": "<p>Two</p>", "id": "p2"},
            {"type": "table", "value": table, "id": "t1"},
        ]
    )
    return digest


def label(*steps: str) -> str:
    return SEPARATOR.join(steps)


def test_blocks_are_counted_by_type_and_children_named():
    digest = page()
    assert place_label(digest, "summary") == "Summary"
    assert place_label(digest, "body.p1") == label("Body", "Paragraph 1")
    assert place_label(digest, "body.p2") == label("Body", "Paragraph 2")
    assert place_label(digest, "body.h1.text") == label("Body", "Heading 1", "Heading")
    assert place_label(digest, "body.t1.rows.r2.c21") == label(
        "Body", "Table 1", "Rows", "Row 2", "Cell 1"
    )


def test_a_block_removed_since_ends_the_label_where_it_is_known():
    assert place_label(page(), "body.0000-gone") == "Body"
    assert place_label(page(), "no_such_field") == "no_such_field"


def test_labels_are_in_the_admin_language():
    digest = page()
    with translation.override("zh-hant"):
        assert place_label(digest, "body.p2") == label("內文", "段落 2")
