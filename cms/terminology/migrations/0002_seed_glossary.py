"""The glossary's first terms, taken from the seed's translated digests (glossary_seed.csv)."""

import csv
from pathlib import Path

from django.db import migrations

SEED = Path(__file__).resolve().parent.parent / "glossary_seed.csv"


def add_terms(apps, schema_editor):
    GlossaryTerm = apps.get_model("terminology", "GlossaryTerm")
    with SEED.open(encoding="utf-8", newline="") as handle:
        for row in csv.DictReader(handle):
            GlossaryTerm.objects.get_or_create(
                english=row["english"],
                defaults={
                    "chinese": row["chinese"],
                    "note": row["note"],
                    "case_sensitive": row["case_sensitive"] == "true",
                    "forbidden_variants": "\n".join(
                        v for v in row["forbidden_variants"].split("|") if v
                    ),
                },
            )


class Migration(migrations.Migration):
    dependencies = [("terminology", "0001_glossary_and_memory")]
    operations = [migrations.RunPython(add_terms, migrations.RunPython.noop)]
