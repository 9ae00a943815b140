"""Bibliographic sources: plug-ins chosen by `SYNC_SOURCES`, as in wagtail-localize."""

from __future__ import annotations

from django.conf import settings
from django.utils.module_loading import import_string

from .base import Source


def get_sources(names: list[str] | None = None, *, listing_scope: str = "") -> list[Source]:
    """The configured sources, in settings order, optionally only those named."""
    configured = settings.SYNC_SOURCES
    unknown = sorted(set(names or []) - set(configured))
    if unknown:
        raise ValueError(f"Unknown source(s): {', '.join(unknown)}; known: {', '.join(configured)}")
    return [
        import_string(config["CLASS"])(
            name=name, options=config.get("OPTIONS", {}), listing_scope=listing_scope
        )
        for name, config in configured.items()
        if not names or name in names
    ]
