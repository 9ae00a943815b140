"""One seeded paper with every optional piece of metadata, and its API representation as written
out by hand: the expected value of the tests of both endpoints that show papers.
"""

from django.utils import translation

from cms.digests.models import DigestPage
from cms.papers.models import PaperAffiliation, PaperAuthor, PaperLink, Venue


def fill_in_odin() -> DigestPage:
    """Odin's paper with every optional piece of metadata filled in."""
    page = DigestPage.objects.get(short_name="Odin", locale__language_code="en")
    paper = page.paper
    paper.doi = "10.1145/0000000.0000001"
    paper.arxiv_id = "2601.00001"
    paper.abstract = "All-to-all traffic breaks congestion control."
    paper.track = "short paper"
    paper.save()
    PaperAuthor.objects.create(
        paper=paper,
        name="Ada Lovelace",
        given="Ada",
        family="Lovelace",
        orcid="0000-0002-1825-0097",
        affiliations=["Analytical Engines Ltd"],
        sort_order=0,
    )
    PaperAuthor.objects.create(paper=paper, name="Alan Turing", sort_order=1)
    PaperAffiliation.objects.filter(paper=paper).delete()
    PaperAffiliation.objects.create(paper=paper, name="Analytical Engines Ltd", sort_order=0)
    PaperLink.objects.create(paper=paper, label="PDF", url="https://example.org/odin.pdf")
    return page


def expected_paper(paper_id: int, language: str = "en") -> dict:
    """Odin's paper as `fill_in_odin` leaves it, as both endpoints show it in `language` (the
    venue's name is translated)."""
    with translation.override(language):
        venue_name = str(Venue.SIGCOMM.label)
    return {
        "id": paper_id,
        "title": "Odin: Rethinking Congestion Control under All-to-All Traffic",
        "doi": "10.1145/0000000.0000001",
        "venue": {"acronym": "SIGCOMM", "name": venue_name},
        "year": 2026,
        "track": "short paper",
        "authors": [
            {
                "name": "Ada Lovelace",
                "given": "Ada",
                "family": "Lovelace",
                "orcid": "0000-0002-1825-0097",
                "affiliations": ["Analytical Engines Ltd"],
            },
            {
                "name": "Alan Turing",
                "given": None,
                "family": None,
                "orcid": None,
                "affiliations": [],
            },
        ],
        "affiliations": ["Analytical Engines Ltd"],
        "ids": {"doi": "10.1145/0000000.0000001", "arxiv_id": "2601.00001"},
        "links": [{"label": "PDF", "url": "https://example.org/odin.pdf"}],
        "abstract": "All-to-all traffic breaks congestion control.",
        "provenance": {},  # set by the sync worker, per field: {"source", "fetched_at"}
        "retracted": False,
        "updates": [],
        "preprint": {
            "doi": None,
            "arxiv_id": "2601.00001",
            "url": "https://arxiv.org/abs/2601.00001",
        },
        "version_of_record": {
            "doi": "10.1145/0000000.0000001",
            "url": "https://doi.org/10.1145/0000000.0000001",
        },
    }
