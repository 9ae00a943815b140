"""How a paper looks in the API, nested in digests and at /api/v2/papers/."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils import translation
from rest_framework import serializers

# The language a paper is shown in: its page's (cms.api.serializers.PageSerializer), or
# `locale`'s at /api/v2/papers/ (cms.papers.api).
from cms.api.fields import PAGE_LANGUAGE, WholeInstanceField

from .notice_types import is_retracted
from .parts import PaperParts, paper_parts
from .versions import preprint_as_dict, version_of_record_as_dict

if TYPE_CHECKING:
    from .models import Paper

# Prefetches that make serializing a list of papers a fixed number of queries.
PAPER_PREFETCH = ("authors", "affiliations", "links")

_REPRESENTATION = "_api_representation"


def venue_name(paper: Paper, language: str | None) -> str:
    """The venue's full name in `language` (the request's language when None)."""
    if language is None:
        return str(paper.venue_name)
    with translation.override(language):
        return str(paper.venue_name)


def paper_as_dict(paper: Paper, language: str | None = None) -> dict[str, Any]:
    """The paper's public metadata, its venue named in `language`; lists call
    selectors.attach_paper_parts first."""
    parts = paper_parts(paper)
    return {
        "id": paper.pk,
        "title": paper.title,
        "doi": paper.doi or None,
        "venue": {"acronym": paper.venue, "name": venue_name(paper, language)},
        "year": paper.year,
        "track": paper.track or None,
        "authors": parts.authors,
        "affiliations": parts.affiliations,
        "ids": paper.ids,
        "links": parts.links,
        "abstract": paper.abstract or None,
        "provenance": paper.provenance or {},
        **standing_as_dict(parts),
        "preprint": preprint_as_dict(paper),
        "version_of_record": version_of_record_as_dict(paper),
    }


def standing_as_dict(parts: PaperParts) -> dict[str, Any]:
    """`retracted` (any notice retracts or withdraws the paper) and `updates` (every notice,
    oldest first), as the API and the `paper.updated` webhook show them."""
    return {
        "retracted": is_retracted(notice["type"] for notice in parts.notices),
        "updates": list(parts.notices),
    }


class PaperSerializer(serializers.Field):
    """Read-only nested representation of a Paper (or null): every key, or those that
    `fields=paper(...)` picks (`picked_keys`)."""

    def __init__(self, **kwargs):
        kwargs["read_only"] = True
        super().__init__(**kwargs)

    def to_representation(self, value: Paper | None) -> dict[str, Any] | None:
        if value is None:
            return None
        paper = paper_as_dict(value, self.context.get(PAGE_LANGUAGE))
        key = f"picked keys of {self.field_name}"  # read once per request, kept in its context
        if key not in self.context:
            self.context[key] = picked_keys(self.context.get("request"), self.field_name)
        picked = self.context[key]
        if picked is None:
            return paper
        return {name: item for name, item in paper.items() if name in picked}

    def get_attribute(self, instance):
        # Allow a null FK to serialize as null instead of raising SkipField.
        return getattr(instance, self.source_attrs[0] if self.source_attrs else "paper", None)


@dataclass(frozen=True)
class PickedKeys:
    """Keys a `fields=paper(...)` selection keeps: all (`*`) or `names`, less `dropped`."""

    everything: bool
    names: frozenset[str]
    dropped: frozenset[str]

    def __contains__(self, key: str) -> bool:
        return (self.everything or key in self.names) and key not in self.dropped


def picked_keys(request, field_name: str) -> PickedKeys | None:
    """The keys of a nested object that `fields=<field_name>(...)` picks, by Wagtail's rules
    for nested fields: `id` and the names given, `*` every key, `_` none to start from, `-name`
    drops one; None when the field is not given sub-fields (every key). Wagtail has checked
    the names against the papers endpoint's fields by now (an unknown one is a 400)."""
    # Imported here: wagtail.api.v2.utils loads the Page model, and models import this module.
    from wagtail.api.v2.utils import FieldsParameterParseError, parse_fields_parameter

    fields = request.GET.get("fields") if request is not None else None
    if not fields:
        return None
    try:
        parsed = parse_fields_parameter(fields)
    except FieldsParameterParseError:
        return None
    sub_fields = next((sub for name, _negated, sub in parsed if name == field_name), None)
    if not sub_fields:
        return None
    everything, names, dropped = False, {"id"}, set()
    for name, negated, _nested in sub_fields:
        if name in ("*", "_"):
            everything, names = name == "*", set()
        elif negated:
            dropped.add(name)
        else:
            names.add(name)
    return PickedKeys(everything, frozenset(names), frozenset(dropped))


class PaperPartField(WholeInstanceField):
    """One key of paper_as_dict, for the papers endpoint's own fields."""

    def __init__(self, key: str, **kwargs):
        self.key = key
        super().__init__(**kwargs)

    def to_representation(self, value: Paper) -> Any:
        # Every part field of one paper reads the same dict, built once per serialized instance.
        representation = getattr(value, _REPRESENTATION, None)
        if representation is None:
            representation = paper_as_dict(value, self.context.get(PAGE_LANGUAGE))
            setattr(value, _REPRESENTATION, representation)
        return representation[self.key]
