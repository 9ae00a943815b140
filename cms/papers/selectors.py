"""Batched reads of paper metadata for the API.

A page of API results needs the authors, affiliations and links of up to 100 papers. Reading
them as plain rows in three queries costs about a quarter of Django's prefetch, which builds a
model instance per author and runs each through modelcluster's manager.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

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
    """Load the authors, affiliations and links of all `papers` in three queries."""
    from .models import PaperAffiliation, PaperAuthor, PaperLink

    by_id: dict[int, list[Paper]] = defaultdict(list)  # digests in two languages share a paper
    for paper in papers:
        if paper is not None:
            by_id[paper.pk].append(paper)
    if not by_id:
        return
    parts = {pk: PaperParts() for pk in by_id}
    order = ("paper_id", "sort_order", "pk")
    authors = PaperAuthor.objects.filter(paper_id__in=by_id).order_by(*order)
    for paper_id, *row in authors.values_list(
        "paper_id", "name", "given", "family", "orcid", "affiliations"
    ):
        parts[paper_id].authors.append(_author(*row))
    affiliations = PaperAffiliation.objects.filter(paper_id__in=by_id).order_by(*order)
    for paper_id, name in affiliations.values_list("paper_id", "name"):
        parts[paper_id].affiliations.append(name)
    links = PaperLink.objects.filter(paper_id__in=by_id).order_by(*order)
    for paper_id, label, url in links.values_list("paper_id", "label", "url"):
        parts[paper_id].links.append({"label": label, "url": url})
    for pk, instances in by_id.items():
        for paper in instances:
            setattr(paper, PREFETCHED_PARTS, parts[pk])


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
