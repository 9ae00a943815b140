"""`manage.py refresh_api_representations`: make every stored API item stale.

Writes that change what the API shows make the items they concern stale on their own
(cms.apicache.staleness). This is for writes made behind the models' backs (SQL by hand, a
restored table) and for after an upgrade that changes how items look: each item is built again
by the first listing that shows it.
"""

from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils.translation import ngettext

from cms.apicache.models import StoredRepresentation
from cms.apicache.representations import invalidate_all


class Command(BaseCommand):
    help = "Make every stored API list item stale; each is built again when next listed."

    def handle(self, *args: object, **options: object) -> None:
        with transaction.atomic():
            stored = StoredRepresentation.objects.filter(body__isnull=False).count()
            invalidate_all()
        message = ngettext(
            "%(count)d stored item made stale.", "%(count)d stored items made stale.", stored
        )
        self.stdout.write(message % {"count": stored})
