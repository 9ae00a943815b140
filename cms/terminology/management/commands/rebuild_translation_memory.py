"""Build the translation memory again from every live translated page."""

from django.core.management.base import BaseCommand

from cms.terminology.memory import rebuild


class Command(BaseCommand):
    help = "Record every live translated page's segments in the translation memory."

    def handle(self, *args, **options):
        self.stdout.write(f"{rebuild()} translated segments in the memory.")
