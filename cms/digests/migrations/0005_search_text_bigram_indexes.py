"""On PostgreSQL, index the character pairs of `search_text`, for two-character search terms.

pg_trgm's index (0002) serves `LIKE '%term%'` only for terms of three or more characters, and
most Chinese words are two (壅塞, 控制): those scanned every page of the table. The set of a
text's character pairs, `digests_bigrams(text)`, under a GIN index answers "holds this pair"
from the index (cms.digests.search adds that condition beside the LIKE). pg_bigm indexes
pairs natively but is not packaged for PostgreSQL 15 on Debian, so an SQL function it is.
Nothing is created on other databases.
"""

from django.db import migrations

FUNCTION = """
CREATE OR REPLACE FUNCTION digests_bigrams(t text) RETURNS text[]
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
    SELECT coalesce(array_agg(DISTINCT substr(t, i, 2)), '{}')
    FROM generate_series(1, length(t) - 1) AS i
$$
"""
TABLES = ("digests_digestpage", "digests_topicpage")


def create(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(FUNCTION)
    for table in TABLES:
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {table}_search_bigrams "
            f"ON {table} USING gin (digests_bigrams(search_text))"
        )


def drop(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for table in TABLES:
        schema_editor.execute(f"DROP INDEX IF EXISTS {table}_search_bigrams")
    schema_editor.execute("DROP FUNCTION IF EXISTS digests_bigrams(text)")


class Migration(migrations.Migration):
    dependencies = [("digests", "0004_page_locale_path_covering_index")]

    operations = [migrations.RunPython(create, drop)]
