"""`manage.py setup_translation_roles [--local-users]`: the Editors and Translators groups."""

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from cms.translation.roles import EDITORS, TRANSLATORS, MissingTreeRoot, ensure_roles

# Local logins for trying the workflow with `make run` (DEBUG only), password = username.
LOCAL_USERS = {"editor": EDITORS, "translator": TRANSLATORS}


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
        if not settings.DEBUG:
            raise CommandError(_("Refusing to create local logins with DEBUG off."))
        user_model = get_user_model()
        for username, group_name in LOCAL_USERS.items():
            user, created = user_model.objects.get_or_create(username=username)
            if created:
                # A name, as Wagtail's account page asks for one before it saves preferences.
                user.first_name, user.last_name = "Local", username.capitalize()
                user.set_password(username)
                user.save()
                self.stdout.write(
                    _("Created local login: {user} / {user} ({group})").format(
                        user=username, group=group_name
                    )
                )
            user.groups.add(groups[group_name])
