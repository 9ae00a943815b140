"""`manage.py import_digests [PATH]`: the seed digests in English and Traditional Chinese."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from cms.digests.importer import import_seed
from cms.digests.seed import DEFAULT_SEED_PATH, SeedError, load_seed


class Command(BaseCommand):
    help = _("Import digests from a seed file (default: the shipped seed) in both languages.")

    def add_arguments(self, parser):
        parser.add_argument(
            "path", nargs="?", default=str(DEFAULT_SEED_PATH), help=_("Seed JSON file.")
        )
        parser.add_argument(
            "--update",
            action="store_true",
            help=_("Also bring existing pages back in line with the file (overwrites edits)."),
        )

    def handle(self, *args, path: str, update: bool, verbosity: int, **options):
        try:
            seed = load_seed(path)
        except SeedError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            _("Importing %(digests)s digests in %(topics)s topics from %(path)s")
            % {"digests": seed.digest_count, "topics": len(seed.topics), "path": path}
        )
        progress = self.stdout.write if verbosity >= 1 else (lambda _message: None)
        try:
            report = import_seed(seed, update=update, progress=progress)
        except Exception as error:  # the transaction is rolled back; say what failed
            raise CommandError(
                _("Import failed, nothing was changed: %(error)s") % {"error": error}
            ) from error
        summary = ", ".join(f"{key}: {value}" for key, value in sorted(report.counts.items()))
        self.stdout.write(self.style.SUCCESS(_("Done. %(summary)s") % {"summary": summary}))
