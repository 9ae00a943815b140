"""Create the documented local admin login (admin / admin) for `make run`; never in production."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _

USERNAME = "admin"
PASSWORD = "admin"


class Command(BaseCommand):
    help = _("Create the local superuser admin/admin if it does not exist (DEBUG only).")

    def handle(self, *args, **options):
        if not settings.DEBUG:
            raise CommandError(_("Refusing to create the local admin login with DEBUG off."))
        user_model = get_user_model()
        if user_model.objects.filter(username=USERNAME).exists():
            self.stdout.write(_("Local admin login already exists: %(user)s") % {"user": USERNAME})
            return
        # A name, as Wagtail's account page asks for one before it saves preferences.
        user_model.objects.create_superuser(
            USERNAME, "admin@localhost", PASSWORD, first_name="Local", last_name="Admin"
        )
        self.stdout.write(
            self.style.SUCCESS(
                _("Created local admin login: %(user)s / %(pw)s")
                % {"user": USERNAME, "pw": PASSWORD}
            )
        )
