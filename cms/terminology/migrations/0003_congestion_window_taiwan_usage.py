""""congestion window" is 壅塞視窗 in Taiwan usage (glossary_seed.csv), not 壅塞窗口.

Databases seeded before keep the old term; this updates it, unless someone already changed it.
"""

from django.db import migrations

OLD, NEW = "壅塞窗口", "壅塞視窗"
NOTE = "Taiwan usage; Mainland 拥塞窗口."
FORBIDDEN = ["拥塞窗口", OLD, "擁塞窗口"]


def use_taiwan_term(apps, schema_editor):
    GlossaryTerm = apps.get_model("terminology", "GlossaryTerm")
    for term in GlossaryTerm.objects.filter(english="congestion window", chinese=OLD):
        variants = [v for v in term.forbidden_variants.splitlines() if v and v != NEW]
        term.chinese = NEW
        term.note = term.note or NOTE
        term.forbidden_variants = "\n".join(dict.fromkeys(variants + FORBIDDEN))
        term.save(update_fields=["chinese", "note", "forbidden_variants"])


class Migration(migrations.Migration):
    dependencies = [("terminology", "0002_seed_glossary")]
    operations = [migrations.RunPython(use_taiwan_term, migrations.RunPython.noop)]
