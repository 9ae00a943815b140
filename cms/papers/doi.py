"""How a paper's DOI is stored: bare and lower-cased, whoever writes it (an editor's form, the
sync worker), so that one DOI has one spelling for uniqueness, matching and doi.org links."""

from __future__ import annotations

import re

RESOLVER_PREFIX = re.compile(r"^(https?://(dx\.)?doi\.org/|doi:)", re.IGNORECASE)


def bare_doi(value: str | None) -> str:
    """A DOI without resolver prefix, lower-cased (DOIs are case-insensitive); "" for no DOI."""
    text = RESOLVER_PREFIX.sub("", (value or "").strip())
    return text.lower() if text.startswith("10.") else ""
