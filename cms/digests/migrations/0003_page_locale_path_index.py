"""Two indexes on Wagtail's page table for the pages API.

- (locale_id, path): a listing asks for one locale in tree order (`?locale=zh-hant`, ordered by
  path). With only Wagtail's single-column indexes the database finds every page of the locale
  and sorts them all before taking a page of results; with this index it reads them in order and
  stops after `limit` rows.
- path WHERE NOT live: every request looks up the unpublished branches whose live descendants
  must stay hidden (cms.api.visibility); a partial index holds only the few unpublished
  pages instead of a scan of the whole table.

The table is Wagtail's, so the indexes are created here rather than in a model's Meta.
"""

from django.db import migrations

LOCALE_PATH = "digests_page_locale_path"
UNPUBLISHED = "digests_page_unpublished_path"


class Migration(migrations.Migration):
    dependencies = [
        ("digests", "0002_search_text"),
        ("wagtailcore", "0098_apitoken"),
    ]

    operations = [
        migrations.RunSQL(
            f"CREATE INDEX IF NOT EXISTS {LOCALE_PATH} ON wagtailcore_page (locale_id, path)",
            f"DROP INDEX IF EXISTS {LOCALE_PATH}",
        ),
        migrations.RunSQL(
            f"CREATE INDEX IF NOT EXISTS {UNPUBLISHED} ON wagtailcore_page (path) WHERE NOT live",
            f"DROP INDEX IF EXISTS {UNPUBLISHED}",
        ),
    ]
