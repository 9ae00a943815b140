"""A paper's two versions: the version of record (the published paper) and its preprint.

`Paper.doi` is the published paper's DOI, so the version of record is the paper's own DOI; the
preprint is known by `preprint_doi` (arXiv's 10.48550/arXiv.N, bioRxiv...) or an arXiv id.
The API shows both, and the citations cite the version of record, or the preprint when that is
all there is. Without models, as the serializers and citations the model imports use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from .models import Paper

ARXIV_DOI_PREFIX = "10.48550/"
ARXIV_HOSTS = frozenset({"arxiv.org", "www.arxiv.org", "export.arxiv.org"})


def has_preprint(paper: Paper) -> bool:
    return bool(paper.preprint_doi or paper.arxiv_id)


def preprint_url(paper: Paper) -> str | None:
    """Where the preprint is read: arXiv's abstract page for an arXiv id, else its DOI's
    address."""
    if paper.arxiv_id:
        return f"https://arxiv.org/abs/{paper.arxiv_id}"
    if paper.preprint_doi:
        return f"https://doi.org/{paper.preprint_doi}"
    return None


def preprint_as_dict(paper: Paper) -> dict[str, Any] | None:
    """The preprint as the API shows it, or None when none is known."""
    if not has_preprint(paper):
        return None
    return {
        "doi": paper.preprint_doi or None,
        "arxiv_id": paper.arxiv_id or None,
        "url": preprint_url(paper),
    }


def version_of_record_as_dict(paper: Paper) -> dict[str, Any] | None:
    """The published version as the API shows it, when the paper is known as a preprint too
    (otherwise `doi` says it all); None while only the preprint is known."""
    if not (paper.doi and has_preprint(paper)):
        return None
    return {"doi": paper.doi, "url": f"https://doi.org/{paper.doi}"}


def is_preprint_address(paper: Paper, url: str) -> bool:
    """Whether `url` is the paper's preprint (arXiv, or the preprint DOI's address) rather than
    a publisher's page."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if host in ARXIV_HOSTS:
        return True
    if host in {"doi.org", "dx.doi.org"}:
        doi = parts.path.lstrip("/").lower()
        return doi.startswith(ARXIV_DOI_PREFIX) or (
            bool(paper.preprint_doi) and doi == paper.preprint_doi.lower()
        )
    return False


def known_only_as_preprint(paper: Paper, links: list[dict[str, str]]) -> bool:
    """Whether the preprint is all there is to cite: no DOI of a published version, no
    publisher's page among the `links` (an NSDI paper has no DOI but USENIX's page), and a
    preprint."""
    if paper.doi or not has_preprint(paper):
        return False
    return all(is_preprint_address(paper, link["url"]) for link in links)
