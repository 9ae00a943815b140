"""Batched reads of paper metadata for the API.

A page of API results needs the authors, affiliations and links of up to 100 papers. Reading
them as plain rows costs a fraction of Django's prefetch, which builds a model instance per
author and runs each through modelcluster's manager.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef, Q, QuerySet
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
    """Load the authors, affiliations and links of all `papers` (three queries for any number)."""
    from .models import PaperAffiliation, PaperAuthor, PaperLink

    by_id: dict[int, list[Paper]] = defaultdict(list)  # digests in two languages share a paper
    for paper in papers:
        if paper is not None:
            by_id[paper.pk].append(paper)
    if not by_id:
        return
    parts = {pk: PaperParts() for pk in by_id}

    def rows(model, *columns):
        ordered = model.objects.filter(paper_id__in=list(by_id)).order_by("sort_order", "pk")
        return ordered.values_list("paper_id", *columns)

    for paper_id, *author in rows(PaperAuthor, "name", "given", "family", "orcid", "affiliations"):
        parts[paper_id].authors.append(_author(*author))
    for paper_id, name in rows(PaperAffiliation, "name"):
        parts[paper_id].affiliations.append(name)
    for paper_id, label, url in rows(PaperLink, "label", "url"):
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
