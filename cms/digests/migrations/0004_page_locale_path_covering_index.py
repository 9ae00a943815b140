"""Widen the (locale_id, path) index on Wagtail's page table so it also holds live and alias_of_id.

A public listing counts and reads the pages of one locale under the public condition
(cms.api.visibility), which tests `live` and `alias_of_id` on every one of them. With both
columns in the index the count is answered from the index alone instead of a row lookup per
page; the order by path and the early stop after `limit` rows stay as 0003 made them.
"""

from django.db import migrations

NARROW = "digests_page_locale_path"
COVERING = "digests_page_locale_path_live_alias"


class Migration(migrations.Migration):
    dependencies = [("digests", "0003_page_locale_path_index")]

    operations = [
        migrations.RunSQL(
            [
                f"CREATE INDEX IF NOT EXISTS {COVERING} "
                "ON wagtailcore_page (locale_id, path, live, alias_of_id)",
                f"DROP INDEX IF EXISTS {NARROW}",
            ],
            [
                f"CREATE INDEX IF NOT EXISTS {NARROW} ON wagtailcore_page (locale_id, path)",
                f"DROP INDEX IF EXISTS {COVERING}",
            ],
        ),
    ]
