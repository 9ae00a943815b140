"""`manage.py import_digests [PATH]`: the seed digests in English and Traditional Chinese."""

import sys
import time

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from tqdm import tqdm

from cms.seed.importer import import_seed
from cms.seed.parse import DEFAULT_SEED_PATH, SeedError, load_seed


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
        parser.add_argument(
            "--no-progress",
            action="store_true",
            help=_("No progress bar (it is shown only on a terminal anyway)."),
        )

    def handle(self, *args, path: str, update: bool, no_progress: bool, verbosity: int, **options):
        started = time.monotonic()
        try:
            seed = load_seed(path)
        except SeedError as error:
            raise CommandError(str(error)) from error
        if verbosity >= 1:
            self.stdout.write(
                _("Importing %(digests)s digests in %(topics)s topics from %(path)s")
                % {"digests": seed.digest_count, "topics": len(seed.topics), "path": path}
            )
        # tqdm writes carriage returns to the raw stream; `disable=None` turns it off when that
        # stream is not a terminal (a log file, CI, a test's StringIO).
        with tqdm(
            total=seed.page_count,
            unit=_("page"),
            file=options.get("stderr") or sys.stderr,
            disable=True if no_progress or verbosity == 0 else None,
            dynamic_ncols=True,
        ) as bar:

            def page_done(label: str, state: str) -> None:
                bar.update()
                if verbosity >= 2:
                    bar.write(f"{label}: {state}", file=options.get("stdout") or sys.stdout)

            try:
                report = import_seed(seed, update=update, page_done=page_done)
            except Exception as error:  # the transaction is rolled back; say what failed
                # On one line: a database's message may carry a DETAIL line of its own.
                raise CommandError(
                    _("Import failed, nothing was changed: %(error)s")
                    % {"error": " ".join(str(error).split())}
                ) from error
        if verbosity >= 1:
            summary = ", ".join(f"{key}: {value}" for key, value in sorted(report.items()))
            self.stdout.write(
                self.style.SUCCESS(
                    _("Done in %(seconds)s s. %(summary)s")
                    % {"seconds": f"{time.monotonic() - started:.1f}", "summary": summary}
                )
            )
