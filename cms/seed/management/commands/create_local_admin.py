"""Create the documented local admin login (admin / admin) for `make run`; never in production."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

from cms.translation.policy.local_logins import ADMIN, NotLocal, ensure_local_login


class Command(BaseCommand):
    help = _("Create the local superuser admin/admin if it does not exist (DEBUG only).")

    def handle(self, *args, **options):
        try:
            _user, created = ensure_local_login(ADMIN)
        except NotLocal as error:
            message = _("Refusing to create the local admin login with DEBUG off.")
            raise CommandError(message) from error
        if not created:
            message = _("Local admin login already exists: %(user)s")
            self.stdout.write(message % {"user": ADMIN.username})
            return
        self.stdout.write(
            self.style.SUCCESS(
                _("Created local admin login: %(user)s / %(pw)s")
                % {"user": ADMIN.username, "pw": ADMIN.password}
            )
        )
