"""`manage.py check_zh_hant`: report Simplified-only characters in any zh-hant page."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from cms.translation.guard.content_checks import check_page, zh_hant_pages


class Command(BaseCommand):
    help = gettext_lazy("Check every zh-hant page for Simplified-only Chinese characters.")

    def handle(self, *args, **options) -> None:
        checked = 0
        failing = 0
        for page in zh_hant_pages().specific().iterator():
            checked += 1
            findings = check_page(page)
            if not findings:
                continue
            failing += 1
            self.stdout.write(
                _("{title} (page {id}):").format(title=page.title, id=page.pk), self.style.ERROR
            )
            for finding in findings:
                self.stdout.write(f"  {finding}")
        if failing:
            raise CommandError(
                ngettext(
                    "{failing} of {checked} zh-hant page contains Simplified characters.",
                    "{failing} of {checked} zh-hant pages contain Simplified characters.",
                    checked,
                ).format(failing=failing, checked=checked)
            )
        self.stdout.write(
            self.style.SUCCESS(
                ngettext(
                    "{checked} zh-hant page checked: all Traditional.",
                    "{checked} zh-hant pages checked: all Traditional.",
                    checked,
                ).format(checked=checked)
            )
        )
