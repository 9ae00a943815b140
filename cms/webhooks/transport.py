"""A webhook POST sent to an address already checked, never to what DNS says next.

requests (like every client that takes a URL) resolves the host again when it connects, so a
host whose DNS answer changes after `check_url` (DNS rebinding) could send a delivery to an
address the check refused. urllib3's public connection pools take the address to connect to
apart from the name the server is asked for: the Host header, TLS SNI and the certificate's
hostname check all use the URL's host, so HTTPS is verified exactly as before.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

import certifi
import urllib3
from django.conf import settings
from urllib3.exceptions import ConnectTimeoutError, NewConnectionError


def post(
    url: str, addresses: list[str], *, body: bytes, headers: dict[str, str], timeout: float
) -> urllib3.BaseHTTPResponse:
    """POST `body` to `url` over a connection to the first of `addresses` (what `check_url`
    returned) that accepts one, as a client trying each address DNS gave would. The answer is
    not read: the caller reads what it needs and releases it. Redirects are not followed and
    nothing is retried; urllib3's errors are raised as they are."""
    *others, last = addresses
    for address in others:
        try:
            return post_to(url, address, body=body, headers=headers, timeout=timeout)
        except (NewConnectionError, ConnectTimeoutError):
            continue
    return post_to(url, last, body=body, headers=headers, timeout=timeout)


def post_to(
    url: str, address: str, *, body: bytes, headers: dict[str, str], timeout: float
) -> urllib3.BaseHTTPResponse:
    """POST `body` to `url` over a connection to `address`."""
    parts = urlsplit(url)
    options = {
        "port": parts.port,
        "timeout": urllib3.Timeout(connect=timeout, read=timeout),
        "retries": False,
        "maxsize": 1,
    }
    if parts.scheme == "https":
        pool = urllib3.HTTPSConnectionPool(
            address,
            server_hostname=parts.hostname,
            assert_hostname=parts.hostname,
            cert_reqs="CERT_REQUIRED",
            ca_certs=settings.WEBHOOK_CA_BUNDLE or certifi.where(),
            **options,
        )
    else:
        pool = urllib3.HTTPConnectionPool(address, **options)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = {**headers, "host": parts.netloc.rpartition("@")[2]}  # without user:password@
    if parts.username is not None:
        credentials = f"{unquote(parts.username)}:{unquote(parts.password or '')}"
        headers.update(urllib3.make_headers(basic_auth=credentials))
    try:
        return pool.urlopen(
            "POST",
            target,
            body=body,
            headers=headers,
            redirect=False,
            assert_same_host=False,
            preload_content=False,
            release_conn=False,
        )
    finally:
        pool.close()  # idle connections only: the answer keeps its own until closed
