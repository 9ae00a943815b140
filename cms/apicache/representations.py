"""Kept for cms.digests.importer until it records its writes through cms.apicache.stale."""

from .stale import batched as all_stale_at_end

__all__ = ["all_stale_at_end"]
