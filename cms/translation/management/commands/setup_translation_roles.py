"""`manage.py setup_translation_roles [--local-users]`: the Editors and Translators groups."""

from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.translation.languages import MissingTreeRoot
from cms.translation.policy.local_logins import LOCAL_LOGINS, NotLocal, ensure_local_login
from cms.translation.policy.roles import ensure_roles


class Command(BaseCommand):
    help = gettext_lazy("Create or complete the Editors and Translators groups (idempotent).")

    def add_arguments(self, parser) -> None:
        parser.add_argument(
            "--local-users",
            action="store_true",
            help=gettext_lazy(
                "Also create the local logins editor/editor and translator/translator (DEBUG only)."
            ),
        )

    def handle(self, *args, **options) -> None:
        try:
            groups = ensure_roles()
        except MissingTreeRoot as error:
            raise CommandError(str(error)) from error
        self.stdout.write(_("Groups ready: {groups}").format(groups=", ".join(sorted(groups))))
        if options["local_users"]:
            self._local_users(groups)

    def _local_users(self, groups) -> None:
        for login in LOCAL_LOGINS:
            if not login.role:
                continue  # the superuser is `create_local_admin`'s
            try:
                _user, created = ensure_local_login(login, group=groups[login.role])
            except NotLocal as error:
                raise CommandError(str(error)) from error
            if created:
                self.stdout.write(
                    _("Created local login: {user} / {user} ({group})").format(
                        user=login.username, group=login.role
                    )
                )
