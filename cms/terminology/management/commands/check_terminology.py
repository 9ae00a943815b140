"""List every glossary violation on the live Traditional Chinese pages; exit 1 if there is any."""

from django.core.management.base import BaseCommand, CommandError

from cms.terminology.checks import TARGET_LANGUAGE, check_site


class Command(BaseCommand):
    help = "Check each live translated page against the glossary (non-zero exit on violations)."

    def add_arguments(self, parser):
        parser.add_argument("--language", default=TARGET_LANGUAGE, help="locale to check")

    def handle(self, *args, language: str, **options):
        violations = check_site(language)
        for violation in violations:
            self.stdout.write(
                f"{violation.page_title} (page {violation.page_id}): {violation.describe()}"
            )
        if violations:
            raise CommandError(f"{len(violations)} terminology violation(s).", returncode=1)
        self.stdout.write(self.style.SUCCESS("Every translated page follows the glossary."))
