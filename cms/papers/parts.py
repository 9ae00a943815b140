"""A paper's authors, affiliations and links as the API shows them, attached or read.

Apart from the batched reads (selectors.py) so that the serializers and citations, which the
model imports, need no module that reads the model.
"""

from __future__ import annotations

import datetime
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
    notices: list[dict[str, Any]] = field(default_factory=list)


def author_as_dict(name: str, given: str, family: str, orcid: str, affiliations) -> dict[str, Any]:
    """One author as the API shows it."""
    return {
        "name": name,
        "given": given or None,
        "family": family or None,
        "orcid": orcid or None,
        "affiliations": list(affiliations or []),
    }


def notice_as_dict(
    update_type: str, doi: str, date: datetime.date | None, source: str, label: str
) -> dict[str, Any]:
    """One update notice as the API shows it (`updates` of a paper)."""
    return {
        "type": update_type,
        "doi": doi or None,
        "date": date.isoformat() if date else None,
        "source": source,
        "label": label,
    }


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
            author_as_dict(a.name, a.given, a.family, a.orcid, a.affiliations)
            for a in paper.authors.all()
        ],
        affiliations=[affiliation.name for affiliation in paper.affiliations.all()],
        links=[{"label": link.label, "url": link.url} for link in paper.links.all()],
        # An unsaved paper (a preview of one being added) has no notices yet.
        notices=[
            notice_as_dict(n.update_type, n.notice_doi, n.updated_on, n.source, n.label)
            for n in (paper.notices.all() if paper.pk else ())
        ],
    )
