"""The indexes cms.digests adds to Wagtail's page table for the pages API (0003-0006)."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
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


def test_a_locale_listing_reads_the_listing_index_in_tree_order(client):
    """`?locale=`'s page query reads the listing index from the locale's first page in path
    order, with no sort, and can stop at `limit`. On PostgreSQL sorts and plain scans are ruled
    out, as the suite's few pages would otherwise be read in one scan; there, filtered through
    a join to the locale table, it walked the whole path index instead."""
    with CaptureQueriesContext(connection) as queries:
        response = client.get(
            "/api/v2/pages/",
            {"type": "digests.DigestPage", "locale": "zh-hant", "limit": 5},
            HTTP_HOST="testserver",
        )
    assert response.status_code == 200 and response.json()["items"]
    (page_query,) = [q["sql"] for q in queries if "LIMIT 5" in q["sql"]]
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SET LOCAL enable_seqscan = off")
            cursor.execute("SET LOCAL enable_sort = off")
            cursor.execute(f"EXPLAIN {page_query}")
        else:
            cursor.execute("ANALYZE")
            cursor.execute(f"EXPLAIN QUERY PLAN {page_query}")
        plan = "\n".join(str(row[-1]) for row in cursor.fetchall())
    assert "digests_page_listing" in plan, plan
    assert "Sort" not in plan and "TEMP B-TREE FOR ORDER BY" not in plan, plan
