"""Bibliographic sources: plug-ins chosen by `SYNC_SOURCES`, as in wagtail-localize."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.utils.module_loading import import_string

from .base import Source


def get_sources(
    names: list[str] | None = None,
    *,
    listing_scope: str = "",
    count_request: Callable[[str], None] | None = None,
    fail_fast: bool = False,
) -> list[Source]:
    """The configured sources, in settings order, optionally only those named; each calls
    `count_request(its name)` before each request it sends, and with `fail_fast` gives up at
    once on a connection that cannot be made (for a person waiting on the answer)."""
    configured = settings.SYNC_SOURCES
    unknown = sorted(set(names or []) - set(configured))
    if unknown:
        raise ValueError(f"Unknown source(s): {', '.join(unknown)}; known: {', '.join(configured)}")
    return [
        import_string(config["CLASS"])(
            name=name,
            options=config.get("OPTIONS", {}),
            listing_scope=listing_scope,
            count_request=count_request,
            fail_fast=fail_fast,
        )
        for name, config in configured.items()
        if not names or name in names
    ]


def display_name(name: str) -> str:
    """The name people know source `name` by ("Crossref" for "crossref"), as its class labels
    it; a name that is no configured source (the worker, a DOI check) is shown as it is."""
    config = settings.SYNC_SOURCES.get(name)
    return (import_string(config["CLASS"]).label or name) if config else name
