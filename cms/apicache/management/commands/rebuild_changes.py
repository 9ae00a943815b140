"""`manage.py rebuild_changes [--new-epoch]`: bring the changes feed's log in line with the pages.

Run it once after upgrading to a release with the changes feed (the log otherwise fills on the
first write), or if the log is ever suspected wrong. Without `--new-epoch` only rows that
differ from the pages are written (under one new sequence number), so consumers' cursors stay
good; with it the log starts afresh and consumers holding a cursor get a 410 and replay.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand

from cms.apicache import changes
from cms.apicache.models import PageChange


class Command(BaseCommand):
    help = "Reconcile the changes feed's log with the pages (--new-epoch: start it afresh)."

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--new-epoch",
            action="store_true",
            help="Drop every row and start a new epoch: consumers' cursors answer 410.",
        )

    def handle(self, *args, new_epoch: bool, **options) -> None:
        started = time.monotonic()
        verbose = options["verbosity"] > 0

        def progress(done: int, total: int) -> None:
            if verbose:
                self.stdout.write(f"  {done:,} of {total:,} pages read")

        seq = changes.rebuild(new_epoch_too=new_epoch, progress=progress)
        rows = PageChange.objects.count()
        written = "nothing differed" if seq is None else f"written as change {seq}"
        if verbose:
            self.stdout.write(
                f"Change log: {rows:,} pages, {written}, in {time.monotonic() - started:.1f} s; "
                f"head cursor {changes.head_cursor()}"
            )
