"""`manage.py add_paper IDENTIFIER... [--yes]`: add papers by DOI, DBLP, arXiv, USENIX,
OpenAlex or Semantic Scholar link or id, or title, as the admin's "Add from identifier" does."""

from __future__ import annotations

import sys

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse
from django.utils.translation import gettext as _

from sync import lookup, services
from sync.identifiers import UnrecognisedIdentifier, recognise


class Command(BaseCommand):
    help = _(
        "Look papers up by identifier or title in the bibliographic sources, show what each "
        "source gave, and add them (a paper the site has is linked, never added twice)."
    )

    def add_arguments(self, parser):
        parser.add_argument("identifiers", nargs="+", metavar="IDENTIFIER")
        parser.add_argument(
            "--yes", action="store_true", help=_("Add what was found without asking.")
        )

    def handle(self, *args, identifiers, yes, **options):
        # Everything is recognised and looked up before anything is written: one bad
        # identifier writes nothing.
        try:
            recognised = [recognise(text) for text in identifiers]
        except UnrecognisedIdentifier as error:
            raise CommandError(str(error)) from error
        failures, found_all = [], []
        for identifier in recognised:
            try:
                found = lookup.look_up(identifier)
            except lookup.NotFound as error:
                failures.append(str(error))
                continue
            if found.candidates and len(found.candidates) == 1:
                found = lookup.look_up(found.candidates[0].identifier)
            self._show(identifier.text, found)
            if found.candidates:
                failures.append(
                    _("“%(text)s” matches several papers: give one's DOI or DBLP key.")
                    % {"text": identifier.text}
                )
            elif found.problem:
                failures.append(found.problem)
            else:
                found_all.append(found)
        if failures:
            raise CommandError(" ".join(failures) + " " + _("Nothing was added."))
        for found in found_all:
            if found.existing_id:
                continue
            if not yes and not self._confirm(found):
                self.stdout.write(_("Skipped “%(title)s”.") % {"title": found.title})
                continue
            paper, created = services.paper_create_from_lookup(found=found)
            message = _("Added: %(url)s") if created else _("Already on the site: %(url)s")
            self.stdout.write(self.style.SUCCESS(message % {"url": self._url(paper.pk)}))

    def _show(self, text: str, found: lookup.Found) -> None:
        self.stdout.write(f"{text}:")
        for candidate in found.candidates:
            self.stdout.write(
                f"  - {candidate.title} ({candidate.venue_name or '?'} {candidate.year or '?'}; "
                f"{', '.join(candidate.authors)}) {candidate.identifier}"
            )
        if found.existing_id:
            self.stdout.write(
                "  " + _("Already on the site: %(url)s") % {"url": self._url(found.existing_id)}
            )
            return
        for label, value, source in lookup.shown_fields(found) if not found.candidates else []:
            self.stdout.write(f"  {label}: {value[:200]}  [{source or '-'}]")
        for message in found.unanswered.values():  # each names its source
            self.stdout.write(self.style.WARNING(f"  {message}"))

    def _confirm(self, found: lookup.Found) -> bool:
        if not sys.stdin.isatty():
            self.stdout.write(_("Not added: pass --yes to add without asking."))
            return False
        answer = input(_("Add “%(title)s”? [y/N] ") % {"title": found.title})
        return answer.strip().lower() in ("y", "yes")

    @staticmethod
    def _url(pk: int) -> str:
        path = reverse("wagtailsnippets_papers_paper:edit", args=[pk])
        return f"{settings.WAGTAILADMIN_BASE_URL.rstrip('/')}{path}"
