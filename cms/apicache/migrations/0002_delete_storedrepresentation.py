from django.db import migrations


class Migration(migrations.Migration):
    """API responses are built from the pages on each cache miss; no item is stored per page."""

    dependencies = [("apicache", "0001_stored_representations")]

    operations = [migrations.DeleteModel(name="StoredRepresentation")]
