"""`manage.py sync_papers`: sync papers in-process (or enqueue them) and print a summary;
exit 1 if any paper had an error."""

from __future__ import annotations

import sys
import uuid
from typing import NoReturn

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from kombu.exceptions import OperationalError
from tqdm import tqdm

from cms.papers.models import Paper
from sync import reachability, runs, selectors, services, tasks
from sync.conf import sync_setting
from sync.models import SyncRun
from sync.services import BatchOutcome
from sync.sources import display_name, get_sources

ERRORS_SHOWN = 20


class Command(BaseCommand):
    help = _("Sync paper metadata from the bibliographic sources.")

    def add_arguments(self, parser):
        parser.add_argument(
            "--paper",
            action="append",
            default=[],
            metavar="SHORT_NAME",
            help=_("Only the paper of this digest (repeatable)."),
        )
        parser.add_argument(
            "--source",
            action="append",
            default=[],
            metavar="NAME",
            help=_("Only this source (repeatable)."),
        )
        parser.add_argument(
            "--dry-run", action="store_true", help=_("Fetch and compare, but write nothing.")
        )
        parser.add_argument(
            "--enqueue", action="store_true", help=_("Hand the work to the Celery worker instead.")
        )
        parser.add_argument(
            "--never-synced",
            action="store_true",
            help=_("Only papers no sync has completed yet (the seed's, after `make run`)."),
        )
        parser.add_argument(
            "--if-reachable",
            action="store_true",
            help=_(
                "Ask each source once, quickly, first: sync with those that answer, and if "
                "none does, say so and end without an error."
            ),
        )

    def handle(self, *args, paper, source, dry_run, enqueue, never_synced, if_reachable, **options):
        self.error_count = 0
        known = {name.casefold(): name for name in settings.SYNC_SOURCES}  # "DBLP" is dblp
        source = [known.get(name.casefold(), name) for name in source]
        try:
            get_sources(source or None)
        except ValueError as error:
            raise CommandError(str(error)) from error
        paper_ids = self._paper_ids(paper)
        if never_synced:
            paper_ids = selectors.never_synced(paper_ids)
            if not paper_ids:
                self.stdout.write(_("Every paper has been synced already."))
                return
        if if_reachable:
            reachable = self._reachable(source)
            if not reachable:
                return
            if len(reachable) < len(source or settings.SYNC_SOURCES):
                source = reachable  # the others would only add errors, after minutes of retries
        if enqueue:
            if dry_run or source:
                raise CommandError(_("--enqueue syncs for real, with every source."))
            try:
                if paper:
                    for paper_id in paper_ids:
                        tasks.sync_paper.delay(paper_id, trigger="command")
                    self.stdout.write(_("Queued %(n)d papers.") % {"n": len(paper_ids)})
                else:
                    self.stdout.write(str(tasks.sync_all.delay(trigger="command").id))
            except OperationalError as error:
                raise CommandError(
                    _(
                        "The broker did not answer (%(error)s): nothing more was queued. "
                        "Run the command without --enqueue to sync in this process."
                    )
                    % {"error": error}
                ) from error
            return
        run = None
        if not dry_run and (paper or never_synced):
            paper_ids, run = self._start_papers(paper_ids, source)
        elif not dry_run:
            run = runs.run_start(
                kind=SyncRun.Kind.ALL,
                trigger="command",
                paper_ids=paper_ids,
                source_names=source or None,
            )
            if run is None:
                raise CommandError(_("Another sync of all papers is running."))
        total = BatchOutcome()
        size = sync_setting("SYNC_BATCH_SIZE")
        scope = f"command-{uuid.uuid4().hex}"  # a dry run has no run to share listings under
        verbose = options["verbosity"] > 1 or dry_run
        with tqdm(
            total=len(paper_ids),
            unit=_("paper"),
            disable=options["verbosity"] == 0,
            # tqdm writes carriage returns to the raw stream (call_command's, else the process's).
            file=options.get("stderr") or sys.stderr,
        ) as bar:
            for start in range(0, len(paper_ids), size):
                try:
                    outcome = services.sync_batch(
                        paper_ids=paper_ids[start : start + size],
                        run=run,
                        source_names=source or None,
                        dry_run=dry_run,
                        progress=bar.update,
                        scope=scope,
                    )
                except KeyboardInterrupt:
                    self._stopped(run, done=bar.n, papers=len(paper_ids))
                self._add(total, outcome, verbose=verbose)
        if run is not None:
            runs.run_finish_if_done(run)
        self._summary(total, len(paper_ids), dry_run)
        if self.error_count:  # the summary is out; the exit status says it was not clean
            raise CommandError(
                ngettext(
                    "The sync had %(n)d error.",
                    "The sync had %(n)d errors.",
                    self.error_count,
                )
                % {"n": self.error_count},
                returncode=1,
            )

    def _stopped(self, run: SyncRun | None, *, done: int, papers: int) -> NoReturn:
        """Ctrl-C: the papers written so far stay; the run ends, owing the workers nothing."""
        counts = {"done": done, "papers": papers}
        if run is not None:
            runs.run_stop(
                run,
                f"Stopped by the operator after {done} of {papers} papers; the rest go to the "
                "next run.",
            )
        raise CommandError(
            _("Stopped after %(done)d of %(papers)d papers; the rest go to the next run.") % counts,
            returncode=130,
        )

    def _reachable(self, source: list[str]) -> list[str]:
        """The sources (of `source`, else all) that answered a quick probe; each one that did
        not is named, and if none did, the command says what to do instead."""
        names = source or list(settings.SYNC_SOURCES)
        missing = reachability.unreachable_sources(names)
        for name, reason in missing.items():
            self.stderr.write(
                _("%(source)s %(reason)s; it is left out.")
                % {"source": display_name(name), "reason": reason}
            )
        if len(missing) == len(names):
            self.stdout.write(
                self.style.WARNING(
                    _(
                        "No source could be reached: the papers stay unsynced. Sync them once "
                        "the network is back, with “Sync all papers” in the admin "
                        "(Metadata sync > Sync runs) or `manage.py sync_papers`."
                    )
                )
            )
            return []
        return [name for name in names if name not in missing]

    def _start_papers(
        self, paper_ids: list[int], source: list[str]
    ) -> tuple[list[int], SyncRun | None]:
        """A run of the papers no other run owes (a Sync now waiting for the worker, a retry):
        those are left to it, and named, rather than taken from it (`run_start_for_papers`)."""
        run, busy = runs.run_start_for_papers(
            paper_ids=paper_ids, trigger="command", source_names=source or None
        )
        titles = dict(Paper.objects.filter(pk__in=busy).values_list("pk", "title"))
        for paper_id, other in busy.items():
            self.stderr.write(
                _("“%(title)s” is being synced by %(run)s already; it is left to that run.")
                % {"title": titles.get(paper_id, paper_id), "run": other}
            )
        return [pk for pk in paper_ids if pk not in busy], run

    def _paper_ids(self, short_names: list[str]) -> list[int]:
        if not short_names:
            return selectors.paper_ids_for_sync_all()
        found = dict(  # the English digests' papers, through DigestPage.paper's related name
            Paper.objects.filter(
                digests__locale__language_code="en", digests__short_name__in=short_names
            ).values_list("digests__short_name", "pk")
        )
        missing = [name for name in short_names if not found.get(name)]
        if missing:
            raise CommandError(
                _("No digest with a paper for: %(names)s") % {"names": ", ".join(missing)}
            )
        return list(dict.fromkeys(found[name] for name in short_names))

    def _add(self, total: BatchOutcome, outcome: BatchOutcome, *, verbose: bool) -> None:
        """Sum a batch into the totals; its plans are printed now rather than kept (a sync of
        thousands of papers would otherwise hold every paper's authors twice)."""
        total.matched += outcome.matched
        total.changed += outcome.changed
        total.fields += outcome.fields
        total.skipped += outcome.skipped
        total.requests.update(outcome.requests)
        total.records_skipped.update(outcome.records_skipped)
        total.errors += outcome.errors[: max(0, ERRORS_SHOWN - len(total.errors))]
        self.error_count += len(outcome.errors)
        if verbose:
            for paper_id, changes in outcome.plans.items():
                for change in changes:
                    self.stdout.write(
                        f"  paper {paper_id}: {change.field} <- {display_name(change.source)}"
                    )

    def _summary(self, total: BatchOutcome, papers: int, dry_run: bool) -> None:
        rows = [
            (_("papers"), papers),
            (_("papers matched"), total.matched),
            (_("papers changed") + (_(" (dry run)") if dry_run else ""), total.changed),
            (_("fields changed"), total.fields),
            *(
                (_("requests to %(source)s") % {"source": display_name(name)}, count)
                for name, count in sorted(total.requests.items())
            ),
            *(
                (_("unreadable records from %(source)s") % {"source": display_name(name)}, count)
                for name, count in sorted(total.records_skipped.items())
            ),
            (_("errors"), self.error_count),
        ]
        width = max(len(label) for label, _value in rows)
        for label, value in rows:
            self.stdout.write(f"{label:<{width}}  {value:>6}")
        for error in total.errors:
            source = display_name(error["source"])
            self.stderr.write(f"  paper {error['paper']}, {source}: {error['message']}")
