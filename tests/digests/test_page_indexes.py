"""The indexes cms.digests adds to Wagtail's page table for the pages API (0003-0006)."""

import pytest
from django.db import connection
from wagtail.models import Page

pytestmark = pytest.mark.django_db


def _page_indexes() -> dict[str, list[str]]:
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, Page._meta.db_table)
    return {name: info["columns"] for name, info in constraints.items() if info["index"]}


def test_listing_index_covers_the_public_condition_of_a_locale():
    indexes = _page_indexes()
    assert indexes["digests_page_listing"] == [
        "locale_id",
        "path",
        "live",
        "alias_of_id",
        "content_type_id",
    ]
    # the narrower ones it replaced
    assert not {"digests_page_locale_path", "digests_page_locale_path_live_alias"} & set(indexes)


def test_unpublished_branches_have_a_partial_index():
    assert _page_indexes()["digests_page_unpublished_path"] == ["path"]


COUNT_OF_A_LOCALE = (
    "SELECT COUNT(*) FROM wagtailcore_page WHERE locale_id = 1 AND live "
    "AND alias_of_id IS NULL AND path LIKE '0001%' AND content_type_id IN (2, 3)"
)


def test_a_locale_count_of_a_page_type_can_be_read_from_the_index_alone():
    """SQLite's plan names the covering index. PostgreSQL's choice among indexes depends on the
    table's size and on VACUUM, so for it the suite's few dozen pages prove nothing; there the
    index must be the plain b-tree, in this column order, that an index-only scan can use."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT indexdef FROM pg_indexes WHERE tablename = 'wagtailcore_page' "
                "AND indexname = 'digests_page_listing'"
            )
            (definition,) = cursor.fetchone()
            assert definition.endswith(
                "USING btree (locale_id, path, live, alias_of_id, content_type_id)"
            ), definition
        else:
            cursor.execute("ANALYZE")
            cursor.execute(f"EXPLAIN QUERY PLAN {COUNT_OF_A_LOCALE}")
            plan = " ".join(str(row[-1]) for row in cursor.fetchall())
            assert "COVERING INDEX digests_page_listing" in plan, plan
