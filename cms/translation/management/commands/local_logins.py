"""`manage.py local_logins`: the local logins of `make run`, printed on every run of it."""

from django.core.management.base import BaseCommand
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.translation.policy.local_logins import login_table


class Command(BaseCommand):
    help = gettext_lazy("Print the local logins (user, password, role, e-mail) that exist.")

    def handle(self, *args, **options) -> None:
        rows = [(_("user"), _("password"), _("role"), _("e-mail")), *login_table()]
        widths = [max(len(row[column]) for row in rows) for column in range(4)]
        self.stdout.write(_("Local logins (this machine only):"))
        for row in rows:
            cells = (f"{cell:<{width}}" for cell, width in zip(row, widths, strict=True))
            self.stdout.write(("  " + "  ".join(cells)).rstrip())
