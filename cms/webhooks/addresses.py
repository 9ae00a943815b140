"""Which URLs may receive webhooks: http(s) only, and no private address unless allowed.

Hand-rolled on `ipaddress` and `getaddrinfo`: the maintained SSRF guards (advocate and the
like) wrap a whole HTTP client; this needs only the check. Every address the host resolves to
is checked, at save time and again before each attempt (DNS may change in between). The attempt
then connects to an address this check returned, never resolving the host again
(cms/webhooks/transport.py), and redirects are never followed, so neither a redirect nor a DNS
answer that changes between the check and the connection can bounce a delivery inside.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _


class UnsafeURL(ValueError):
    """A URL that must not receive webhooks; the message says why."""


# NAT64's well-known prefix (RFC 6052): the last 32 bits are the IPv4 address reached.
NAT64_PREFIX = ipaddress.ip_network("64:ff9b::/96")
# IPv6 forms that carry an IPv4 address and are never global, whatever that address is (the
# `ipaddress` module of some Pythons calls them global): IPv4-compatible addresses (`::a.b.c.d`,
# deprecated by RFC 4291), SIIT's IPv4-translated addresses (`::ffff:0:a.b.c.d`, RFC 2765), and
# NAT64's local-use prefix (RFC 8215), which a network routes to gateways of its own.
NON_GLOBAL_IPV6 = tuple(
    ipaddress.ip_network(network) for network in ("::/96", "::ffff:0:0:0/96", "64:ff9b:1::/48")
)


def is_public(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    """Whether `address` is a global unicast address outside the IPv4-carrying IPv6 forms."""
    if address.version == 6 and any(address in network for network in NON_GLOBAL_IPV6):
        return False
    return address.is_global and not address.is_multicast


def reached(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> list:
    """The address and any IPv4 address it carries (mapped, 6to4, Teredo, NAT64), which a
    network with those gateways would reach: each must be public."""
    found = [address]
    if isinstance(address, ipaddress.IPv6Address):
        found += [a for a in (address.ipv4_mapped, address.sixtofour) if a is not None]
        if address.teredo is not None:
            found += list(address.teredo)
        if address in NAT64_PREFIX:
            found.append(ipaddress.IPv4Address(int(address) & 0xFFFFFFFF))
    return found


def check_url(url: str) -> list[str]:
    """The addresses `url`'s host resolves to, to connect to in this order; raise UnsafeURL
    unless `url` is http(s) and, where private addresses are not allowed
    (WEBHOOK_ALLOW_PRIVATE_ADDRESSES off, as in production), every one of them is public."""
    parts = urlsplit(url)
    if parts.scheme not in {"http", "https"}:
        raise UnsafeURL(_("Only http and https URLs can receive webhooks."))
    host = parts.hostname
    if not host:
        raise UnsafeURL(_("The URL has no host."))
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as error:
        raise UnsafeURL(_("The URL's port is not a number from 1 to 65535.")) from error
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, ValueError) as error:
        raise UnsafeURL(_("The host %(host)s cannot be resolved.") % {"host": host}) from error
    addresses = list(dict.fromkeys(str(sockaddr[0]) for *_rest, sockaddr in found))
    if not settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES:
        for found_address in addresses:
            for address in reached(ipaddress.ip_address(found_address.split("%")[0])):
                if not is_public(address):
                    raise UnsafeURL(
                        _(
                            "The host %(host)s resolves to %(address)s, a private, loopback or "
                            "link-local address, which cannot receive webhooks here."
                        )
                        % {"host": host, "address": address}
                    )
    return addresses
