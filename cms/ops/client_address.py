"""The client's address: one rule for the login lockout (django-axes) and the API rate limit.

Behind N reverse proxies, each proxy appends the address it saw to X-Forwarded-For, so the
client is found by walking back from the peer (REMOTE_ADDR) through at most
`TRUSTED_PROXY_COUNT` hops, and only through hops that are trusted proxies
(`TRUSTED_PROXY_ADDRESSES`, the addresses gunicorn accepts X-Forwarded-* from). Anything left
of that is what the client wrote itself and is never read, and a client that reaches gunicorn
directly is its own peer address whatever header it sends.

django-ipware (axes' default) validates a chain from the header alone, so a client reaching
the web process directly can send a chain of the expected length; DRF's NUM_PROXIES rule has
the same gap. Hence this small callable, used as AXES_CLIENT_IP_CALLABLE and by
cms.ops.throttling.
"""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.http import HttpRequest

ANY_ADDRESS = "*"

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.cache
def trusted_networks(addresses: tuple[str, ...]) -> tuple[Network, ...] | None:
    """The trusted proxies as networks; None when any address is trusted ("*")."""
    if ANY_ADDRESS in addresses:
        return None
    networks = []
    for address in addresses:
        try:
            networks.append(ipaddress.ip_network(address, strict=False))
        except ValueError as error:
            raise ImproperlyConfigured(
                f"TRUSTED_PROXY_ADDRESSES: {address!r} is not an IP address or network"
            ) from error
    return tuple(networks)


def is_trusted_proxy(address: str, trusted: Iterable[str]) -> bool:
    """Whether `address` is one of the trusted proxies (every address with "*")."""
    networks = trusted_networks(tuple(trusted))
    if networks is None:
        return True
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def client_address(request: HttpRequest) -> str:
    """The address of the client behind the configured trusted proxies (see module docstring)."""
    address = request.META.get("REMOTE_ADDR", "")
    hops = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    if not hops:
        return address
    trusted = getattr(settings, "TRUSTED_PROXY_ADDRESSES", ())
    forwarded = [
        entry.strip()
        for entry in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")
        if entry.strip()
    ]
    for _hop in range(hops):
        if not forwarded or not is_trusted_proxy(address, trusted):
            break
        address = forwarded.pop()
    return address
