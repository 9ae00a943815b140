"""Point the default Wagtail Site at the address readers use, so `meta.html_url` leads there.

Wagtail builds every page's `html_url` from its Site's hostname and port; the import creates the
Site as Wagtail's default (localhost, port 80), which is nobody's address. `make run` points it at
the development server; a deployment at its public front end (Settings > Sites in the admin does
the same by hand).
"""

from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext as _
from wagtail.models import Site

from cms.digests.sites import name_site

DEFAULT_PORTS = {"http": 80, "https": 443}


def parse_site_address(url: str) -> tuple[str, int]:
    """(hostname, port) of an http(s) URL without a path; ValueError naming what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError(
            _("%(url)s: the address must start with http:// or https://") % {"url": url}
        )
    try:
        port = parts.port or DEFAULT_PORTS[parts.scheme]
    except ValueError as error:
        raise ValueError(
            _("%(url)s: the port is not a number from 1 to 65535") % {"url": url}
        ) from error
    if not parts.hostname:
        raise ValueError(_("%(url)s: the address has no host name") % {"url": url})
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(
            _("%(url)s: a Wagtail site is a host name and port only, without a path or query")
            % {"url": url}
        )
    return parts.hostname, port


class Command(BaseCommand):
    help = _("Point the default site (the host of every page's html_url) at an http(s) address.")

    def add_arguments(self, parser):
        parser.add_argument("url", help=_("for example https://digests.example.org"))

    def handle(self, *args, url: str, **options):
        try:
            hostname, port = parse_site_address(url)
        except ValueError as error:
            raise CommandError(str(error)) from error
        with transaction.atomic():
            site = Site.objects.select_for_update().filter(is_default_site=True).first()
            if site is None:
                raise CommandError(_("There is no default site yet: run import_digests first."))
            taken = Site.objects.filter(hostname=hostname, port=port).exclude(pk=site.pk)
            if taken.exists():
                raise CommandError(
                    _("Another site already has %(host)s:%(port)s.")
                    % {"host": hostname, "port": port}
                )
            site.hostname, site.port = hostname, port
            site.save(update_fields=["hostname", "port"])
            name_site(site)  # sites imported before the import named them
        self.stdout.write(
            _("Default site: %(root)s (pages' html_url start there)") % {"root": site.root_url}
        )
