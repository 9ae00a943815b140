"""Whether the configured sources can be reached at all, asked quickly before a sync.

`make run` syncs the seed's papers only when a source answers: on a machine offline (or behind
a proxy the sources cannot pass) a sync would spend minutes on retries and back-off, per paper,
to end in errors. One request per source, side by side, with a short timeout, says so in
seconds. Any HTTP answer counts as reachable (a source's root may well answer 404): the
question is the network, not the API.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import requests
from django.conf import settings

PROBE_TIMEOUT = 3.0  # seconds, connect and read


def _probe(base_url: str, timeout: float) -> str:
    """ "" if `base_url` answered, else why not, as a sentence's predicate."""
    try:
        requests.head(f"{base_url.rstrip('/')}/", timeout=timeout, allow_redirects=False)
    except requests.exceptions.Timeout:
        return f"did not answer within {timeout:g} seconds"
    except requests.exceptions.RequestException as error:
        text = str(error)
        if "resolve" in text or "Name or service" in text:
            return "could not be reached (its name did not resolve)"
        if "refused" in text:
            return "could not be reached (connection refused)"
        return "could not be reached"
    return ""


def unreachable_sources(
    names: list[str] | None = None, *, timeout: float = PROBE_TIMEOUT
) -> dict[str, str]:
    """The configured sources (or those of `names`) that did not answer, each with why.

    A source without a base URL (an in-memory fake) has no network to miss and is reachable."""
    urls = {
        name: config.get("OPTIONS", {}).get("base_url", "")
        for name, config in settings.SYNC_SOURCES.items()
        if not names or name in names
    }
    urls = {name: url for name, url in urls.items() if url}
    if not urls:
        return {}
    with ThreadPoolExecutor(max_workers=len(urls)) as pool:
        answers = pool.map(lambda url: _probe(url, timeout), urls.values())
        reasons = dict(zip(urls, answers, strict=True))
    return {name: reason for name, reason in reasons.items() if reason}
