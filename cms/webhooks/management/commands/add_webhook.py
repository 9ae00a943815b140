"""`manage.py add_webhook URL --event E [--event E ...] [--locale L]`: add an endpoint.

The same checks as the admin's form (cms.webhooks.forms); the secret is printed once.
"""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError
from wagtail.models import Locale

from cms.webhooks.forms import EndpointForm
from cms.webhooks.models import EVENT_TYPES


class Command(BaseCommand):
    help = "Add a webhook endpoint and print its signing secret (shown only this once)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("url", help="The http(s) URL that receives the events.")
        parser.add_argument(
            "--event",
            dest="events",
            action="append",
            required=True,
            choices=[kind for kind, _label in EVENT_TYPES],
            help="An event to send (repeat for more).",
        )
        parser.add_argument("--locale", help="Only page events in this language, e.g. zh-hant.")
        parser.add_argument("--description", default="")

    def handle(self, *args, url: str, events: list[str], locale: str | None, **options) -> None:
        data = {"url": url, "events": events, "description": options["description"], "active": True}
        if locale:
            found = Locale.objects.filter(language_code=locale).first()
            if found is None:
                codes = ", ".join(Locale.objects.values_list("language_code", flat=True))
                raise CommandError(f"--locale {locale!r} is not a language here ({codes}).")
            data["locale"] = found.pk
        form = EndpointForm(data=data)
        if not form.is_valid():
            problems = "; ".join(
                f"{field}: {' '.join(errors)}" for field, errors in form.errors.items()
            )
            raise CommandError(f"{url}: {problems}")
        endpoint = form.save()
        self.stdout.write(f"Added webhook endpoint {endpoint.pk} for {endpoint.url}")
        self.stdout.write(f"Signing secret (shown only now): {endpoint.secret}")
