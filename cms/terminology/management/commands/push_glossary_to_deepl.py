"""Create a DeepL glossary from ours and print the setting that makes DeepL apply it."""

import requests
from django.core.management.base import BaseCommand, CommandError

from cms.terminology.deepl_glossary import push_glossary


class Command(BaseCommand):
    help = "Create a DeepL glossary (EN -> ZH) from the glossary; prints DEEPL_GLOSSARY_ID=..."

    def handle(self, *args, **options):
        try:
            answer = push_glossary()
        except ValueError as error:
            raise CommandError(str(error)) from error
        except requests.RequestException as error:
            raise CommandError(f"DeepL refused the glossary: {error}") from error
        self.stdout.write(f"{answer.get('entry_count', '?')} entries sent to DeepL.")
        self.stdout.write(f"DEEPL_GLOSSARY_ID={answer['glossary_id']}")
