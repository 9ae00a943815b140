"""How a paper looks in the API, nested in digests and at /api/v2/papers/."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rest_framework import serializers

from .selectors import paper_parts

if TYPE_CHECKING:
    from .models import Paper

# Prefetches that make serializing a list of papers a fixed number of queries.
PAPER_PREFETCH = ("authors", "affiliations", "links")

_REPRESENTATION = "_api_representation"


def paper_as_dict(paper: Paper) -> dict[str, Any]:
    """The paper's public metadata; lists call selectors.attach_paper_parts first."""
    parts = paper_parts(paper)
    return {
        "id": paper.pk,
        "title": paper.title,
        "doi": paper.doi or None,
        "venue": {"acronym": paper.venue, "name": str(paper.venue_name)},
        "year": paper.year,
        "track": paper.track or None,
        "authors": parts.authors,
        "affiliations": parts.affiliations,
        "ids": paper.ids,
        "links": parts.links,
        "abstract": paper.abstract or None,
        "provenance": paper.provenance or {},
    }


class PaperSerializer(serializers.Field):
    """Read-only nested representation of a Paper (or null)."""

    def __init__(self, **kwargs):
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: Paper | None) -> dict[str, Any] | None:
        return paper_as_dict(value) if value is not None else None

    def get_attribute(self, instance):
        # Allow a null FK to serialize as null instead of raising SkipField.
        return getattr(instance, self.source_attrs[0] if self.source_attrs else "paper", None)


class PaperPartField(serializers.Field):
    """One key of paper_as_dict, for the papers endpoint's own fields."""

    def __init__(self, key: str, **kwargs):
        self.key = key
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def get_attribute(self, instance: Paper) -> Paper:
        return instance

    def to_representation(self, value: Paper) -> Any:
        # Every part field of one paper reads the same dict, built once per serialized instance.
        representation = getattr(value, _REPRESENTATION, None)
        if representation is None:
            representation = paper_as_dict(value)
            setattr(value, _REPRESENTATION, representation)
        return representation[self.key]
