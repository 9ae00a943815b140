"""Batched reads of paper metadata for the API.

A page of API results needs the authors, affiliations and links of up to 100 papers. Reading
them as plain rows in one query costs a fraction of Django's prefetch, which builds a
model instance per author and runs each through modelcluster's manager.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import CharField, Exists, F, JSONField, OuterRef, Q, QuerySet, Value
from django.http import HttpRequest

if TYPE_CHECKING:
    from .models import Paper

PREFETCHED_PARTS = "_api_parts"


@dataclass
class PaperParts:
    """A paper's ordered child rows, as the API shows them."""

    authors: list[dict[str, Any]] = field(default_factory=list)
    affiliations: list[str] = field(default_factory=list)
    links: list[dict[str, str]] = field(default_factory=list)


def _author(name: str, given: str, family: str, orcid: str, affiliations) -> dict[str, Any]:
    return {
        "name": name,
        "given": given or None,
        "family": family or None,
        "orcid": orcid or None,
        "affiliations": list(affiliations or []),
    }


def attach_paper_parts(papers: Iterable[Paper]) -> None:
    """Load the authors, affiliations and links of all `papers` in one query."""
    by_id: dict[int, list[Paper]] = defaultdict(list)  # digests in two languages share a paper
    for paper in papers:
        if paper is not None:
            by_id[paper.pk].append(paper)
    if not by_id:
        return
    parts = {pk: PaperParts() for pk in by_id}
    for paper_id, kind, first, second, third, fourth, listed, *_order in _part_rows(list(by_id)):
        if kind == _AUTHOR:
            parts[paper_id].authors.append(_author(first, second, third, fourth, listed))
        elif kind == _AFFILIATION:
            parts[paper_id].affiliations.append(first)
        else:
            parts[paper_id].links.append({"label": first, "url": second})
    for pk, instances in by_id.items():
        for paper in instances:
            setattr(paper, PREFETCHED_PARTS, parts[pk])


# The kinds of row _part_rows returns, in the order they come.
_AUTHOR, _AFFILIATION, _LINK = 0, 1, 2


def _part_rows(paper_ids: list[int]):
    """The papers' authors, affiliations and links as one UNION ALL of plain rows:
    (paper_id, kind, four text columns, the author's affiliations), in the editors' order."""
    from .models import PaperAffiliation, PaperAuthor, PaperLink

    def nothing(output_field=None):
        return Value(None, output_field=output_field or CharField())

    kinds = (
        (PaperAuthor, _AUTHOR, (F("name"), F("given"), F("family"), F("orcid"), F("affiliations"))),
        (PaperAffiliation, _AFFILIATION, (F("name"), nothing(), nothing(), nothing())),
        (PaperLink, _LINK, (F("label"), F("url"), nothing(), nothing())),
    )
    columns = ("paper_id", "kind", "first", "second", "third", "fourth", "listed")
    selects = []
    for model, kind, values in kinds:
        values = (*values, nothing(JSONField()))[:5]
        named = dict(zip(columns[2:], values, strict=True))
        rows = model.objects.filter(paper_id__in=paper_ids).order_by()
        selects.append(
            rows.annotate(kind=Value(kind), **named).values_list(*columns, "sort_order", "id")
        )
    union = selects[0].union(*selects[1:], all=True)
    return union.order_by("paper_id", "kind", "sort_order", "id")


def paper_parts(paper: Paper) -> PaperParts:
    """The parts attached by attach_paper_parts, else read through the paper's own relations.

    The relations also hold unsaved in-memory children (modelcluster), so a paper being edited
    serializes as the editor sees it.
    """
    attached = getattr(paper, PREFETCHED_PARTS, None)
    if attached is not None:
        return attached
    return PaperParts(
        authors=[
            _author(a.name, a.given, a.family, a.orcid, a.affiliations) for a in paper.authors.all()
        ],
        affiliations=[affiliation.name for affiliation in paper.affiliations.all()],
        links=[{"label": link.label, "url": link.url} for link in paper.links.all()],
    )


def papers_on_public_pages(request: HttpRequest, *, language: str | None = None) -> QuerySet:
    """The papers that a live, public digest shows to `request` (in `language` if given).

    The papers endpoint's exposure rule: a paper is public only through a page the pages API
    would show to the same request (cms.digests.visibility decides which), so papers of draft,
    unpublished, private or unreachable digests, and their authors, never appear.
    """
    from cms.digests.models import DigestPage
    from cms.digests.visibility import public_pages

    from .models import Paper

    showing = public_pages(request, DigestPage).filter(paper_id=OuterRef("pk"))
    if language is not None:
        showing = showing.filter(locale__language_code=language)
    return Paper.objects.filter(Exists(showing))


def paper_search_condition(terms: list[str], *, operator: str = "and") -> Q:
    """Papers whose title, DOI, venue (acronym or name) or an author's name holds every term
    (any term with operator "or"), ignoring case."""
    from .models import PaperAuthor, Venue

    condition = Q()
    for term in terms:
        venues = [venue for venue, name in Venue.choices if term in f"{venue} {name}".casefold()]
        authors = PaperAuthor.objects.filter(paper_id=OuterRef("pk"), name__icontains=term)
        term_condition = (
            Q(title__icontains=term)
            | Q(doi__icontains=term)
            | Q(venue__in=venues)
            | Q(Exists(authors))
        )
        condition = condition | term_condition if operator == "or" else condition & term_condition
    return condition
