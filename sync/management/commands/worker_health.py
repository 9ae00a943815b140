"""`manage.py worker_health`: exit 0 when a Celery worker answers a ping, 1 otherwise.

For orchestrators (compose healthcheck, systemd watchdog scripts, Kubernetes exec probes):
`celery inspect ping` exits 0 with "No nodes replied" on some versions, and always needs the
app path spelled out; this command knows the app and can insist on one node by name.
"""

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils.translation import gettext as _

from cms.celery import app


class Command(BaseCommand):
    help = (
        "Ping the Celery workers through the broker; exit 1 if none (or not the named one) replies."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--node",
            help="Only this worker node name must reply, e.g. celery@host (default: any worker).",
        )
        parser.add_argument(
            "--timeout", type=float, default=3.0, help="Seconds to wait for replies (default 3)."
        )

    def handle(self, *args: object, node: str | None, timeout: float, **options: object) -> None:
        destination = [node] if node else None
        with app.connection_for_write() as connection:
            try:  # one attempt: kombu would otherwise retry a dead broker for minutes
                connection.ensure_connection(max_retries=1, interval_start=0, timeout=timeout)
            except Exception as exc:
                raise CommandError(
                    _("Cannot reach the broker: %(error)s") % {"error": exc}
                ) from exc
            replies = app.control.ping(
                destination=destination, timeout=timeout, connection=connection
            )
        nodes = sorted(name for reply in replies or [] for name in reply)
        if not nodes:
            target = node or _("any worker")
            raise CommandError(
                _("No reply from %(target)s within %(timeout)s s.")
                % {"target": target, "timeout": timeout}
            )
        self.stdout.write(_("Workers answering: %(nodes)s") % {"nodes": ", ".join(nodes)})
