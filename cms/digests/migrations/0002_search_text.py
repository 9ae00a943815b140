"""Add the casefolded `search_text` column, fill it, and index it with pg_trgm on PostgreSQL.

The GIN trigram index serves `LIKE '%term%'` on PostgreSQL; other databases have no such index
and scan the (short) column, so the index is created only when the vendor is PostgreSQL. It is
not declared in the models' Meta because it must not exist on SQLite.
"""

from django.contrib.postgres.operations import TrigramExtension
from django.db import migrations, models

from cms.digests.search import build_search_text

SEARCHABLE = {
    "digestpage": ("title", "short_name", "summary"),
    "topicpage": ("title", "intro"),
}


def fill_search_text(apps, schema_editor):
    for model_name, field_names in SEARCHABLE.items():
        model = apps.get_model("digests", model_name)
        pages = list(model.objects.only(*field_names))
        for page in pages:
            page.search_text = build_search_text(getattr(page, name) for name in field_names)
        model.objects.bulk_update(pages, ["search_text"], batch_size=500)


def create_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for model_name in SEARCHABLE:
        table = f"digests_{model_name}"
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {table}_search_text_trgm "
            f"ON {table} USING gin (search_text gin_trgm_ops)"
        )


def drop_trigram_indexes(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    for model_name in SEARCHABLE:
        schema_editor.execute(f"DROP INDEX IF EXISTS digests_{model_name}_search_text_trgm")


class Migration(migrations.Migration):

    dependencies = [
        ("digests", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="digestpage",
            name="search_text",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.AddField(
            model_name="topicpage",
            name="search_text",
            field=models.TextField(blank=True, default="", editable=False),
        ),
        migrations.RunPython(fill_search_text, migrations.RunPython.noop),
        # Skipped by Django on databases other than PostgreSQL.
        TrigramExtension(),
        migrations.RunPython(create_trigram_indexes, drop_trigram_indexes),
    ]
