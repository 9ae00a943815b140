"""Widen the listing index on Wagtail's page table with content_type_id (it replaces 0004's).

On PostgreSQL a typed listing's count reads the page table alone, its page type spelled as
Wagtail's `.type()` does, by content type (cms.digests.api, count_queryset). With content_type_id
in the index that count of one locale's public pages is answered from the index alone, as 0004
made the untyped count; the order by path and the early stop after `limit` rows stay.
"""

from django.db import migrations

PREVIOUS = "digests_page_locale_path_live_alias"
LISTING = "digests_page_listing"


class Migration(migrations.Migration):
    dependencies = [("digests", "0005_search_text_bigram_indexes")]

    operations = [
        migrations.RunSQL(
            [
                f"CREATE INDEX IF NOT EXISTS {LISTING} "
                "ON wagtailcore_page (locale_id, path, live, alias_of_id, content_type_id)",
                f"DROP INDEX IF EXISTS {PREVIOUS}",
            ],
            [
                f"CREATE INDEX IF NOT EXISTS {PREVIOUS} "
                "ON wagtailcore_page (locale_id, path, live, alias_of_id)",
                f"DROP INDEX IF EXISTS {LISTING}",
            ],
        ),
    ]
