"""Point the default Wagtail Site at the address readers use, so `meta.html_url` leads there.

Wagtail builds every page's `html_url` from its Site's hostname and port; the import creates the
Site as Wagtail's default (localhost, port 80), which is nobody's address. `make run` points it at
the development server; a deployment at its public front end (Settings > Sites in the admin does
the same by hand).
"""

import ipaddress
import re
from urllib.parse import urlsplit

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction
from django.utils.translation import gettext as _
from wagtail.models import Site

from cms.digests.sites import name_site

DEFAULT_PORTS = {"http": 80, "https": 443}
# A DNS label (underscores allowed, as browsers and container names allow them).
HOST_LABEL = re.compile(r"^(?!-)[a-z0-9_-]{1,63}(?<!-)$")


def is_host_name(hostname: str) -> bool:
    """An IP address or a DNS name (an internationalized one included): what a reader's
    browser can reach, unlike any text urlsplit takes for a host (spaces, commas)."""
    try:
        ipaddress.ip_address(hostname)
        return True
    except ValueError:
        pass
    try:
        ascii_name = hostname.encode("idna").decode("ascii")
    except UnicodeError:
        return False
    labels = ascii_name.removesuffix(".").split(".")
    return len(ascii_name) <= 253 and all(HOST_LABEL.match(label) for label in labels)


def parse_site_address(url: str) -> tuple[str, int]:
    """(hostname, port) of an http(s) URL without a path; ValueError naming what is wrong."""
    invalid_host = ValueError(_("%(url)s: the host name is not valid") % {"url": url})
    try:
        parts = urlsplit(url)
    except ValueError as error:  # an unclosed IPv6 bracket
        raise invalid_host from error
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError(
            _("%(url)s: the address must start with http:// or https://") % {"url": url}
        )
    try:
        port = parts.port
    except ValueError:
        port = 0
    if port is None:
        port = DEFAULT_PORTS[parts.scheme]
    if not 1 <= port <= 65535:
        raise ValueError(_("%(url)s: the port is not a number from 1 to 65535") % {"url": url})
    if not parts.hostname:
        raise ValueError(_("%(url)s: the address has no host name") % {"url": url})
    if parts.username is not None or parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(
            _("%(url)s: a Wagtail site is a host name and port only, without a path or query")
            % {"url": url}
        )
    if not is_host_name(parts.hostname):  # every page's html_url would start with it
        raise invalid_host
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
