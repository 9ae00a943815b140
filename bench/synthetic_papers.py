"""What each synthetic digest's paper is: the one description both sides are built from.

The scenario's Paper rows (what the site knows before a sync) and the stand-in upstream's
records (what DBLP, Crossref, OpenAlex and Semantic Scholar would answer, in their own schemas;
bench/upstream_catalog.py) both come from `synthetic_paper(number)`, so a sync against the
stand-in matches and merges for real. The identifiers have the shape of real ones but cannot be
mistaken for them: DOIs use Crossref's test prefix 10.5555, titles start with "[Synthetic]".
As at the real venues, USENIX (NSDI) papers have no DOI.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cache

from .scenario import synthetic_digest

AUTHORS_PER_PAPER = 6
VENUES_WITHOUT_DOIS = frozenset({"NSDI"})
DBLP_STREAM = {"SIGCOMM": "sigcomm", "NSDI": "nsdi", "ISCA": "isca", "EuroSys": "eurosys"}
# How Semantic Scholar names the venues (its `venue` field and bulk-search filter).
S2_VENUE = {
    "SIGCOMM": "Conference on Applications, Technologies, Architectures, and Protocols for "
    "Computer Communication",
    "NSDI": "Symposium on Networked Systems Design and Implementation",
    "ISCA": "International Symposium on Computer Architecture",
    "EuroSys": "European Conference on Computer Systems",
}
CONTAINER_TITLE = {
    "SIGCOMM": "Proceedings of the ACM SIGCOMM {year} Conference",
    "ISCA": "Proceedings of the {year} ACM/IEEE International Symposium on Computer Architecture",
    "EuroSys": "Proceedings of the Twenty-{ordinal} European Conference on Computer Systems",
}
USENIX_PAGE = "https://www.usenix.org/conference/nsdi{yy}/presentation/{slug}"

_GIVEN = [
    "Ana", "Bo", "Chen", "Dario", "Elif", "Fang", "Gita", "Hiro", "Ines", "Jun", "Kofi",
    "Lena", "Mei", "Nikhil", "Olga", "Pavel", "Qing", "Rosa", "Sanjay", "Tomas", "Uma",
    "Vera", "Wei", "Xin", "Yara", "Zhen",
]  # fmt: skip
_FAMILY = [
    "Abara", "Bauer", "Castro", "Dubois", "Eriksen", "Fischer", "Garcia", "Hoffmann", "Ito",
    "Jensen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov", "Quinn",
    "Rossi", "Schmidt", "Tanaka", "Ueda", "Varga", "Weber", "Xu", "Yilmaz", "Zhang",
]  # fmt: skip


@dataclass(frozen=True)
class SyntheticAuthor:
    given: str
    family: str
    orcid: str  # "" for authors without one
    institution: str
    dblp_homonym: str  # dblp's "0002" suffix for a name it has seen before, or ""

    @property
    def name(self) -> str:
        return f"{self.given} {self.family}"


@dataclass(frozen=True)
class SyntheticPaper:
    number: int
    title: str
    venue: str
    year: int
    doi: str
    dblp_key: str
    authors: tuple[SyntheticAuthor, ...]
    abstract: str
    pages: str
    arxiv_id: str  # "" for papers without a preprint
    openalex_id: str
    semantic_scholar_id: str
    corpus_id: int
    # A few papers with a DOI are missing there (`null` in a batch answer; see
    # bench/upstream_catalog.py for why none that would be looked up by title).
    in_semantic_scholar: bool

    @property
    def short_name(self) -> str:
        return f"Synthetic-{self.number:05d}"

    @property
    def landing_page(self) -> str:
        if self.doi:
            return f"https://doi.org/{self.doi}"
        slug = f"{self.authors[0].family.lower()}-{self.number:05d}"
        return USENIX_PAGE.format(yy=self.year % 100, slug=slug)


def _orcid(seed: int) -> str:
    """A well-formed ORCID (ISO 7064 mod 11-2 check digit) in the 0009- block."""
    digits = f"0009{seed % 10**11:011d}"
    total = 0
    for digit in digits:
        total = (total + int(digit)) * 2
    check = (12 - total % 11) % 11
    body = digits + ("X" if check == 10 else str(check))
    return "-".join(body[i : i + 4] for i in range(0, 16, 4))


def _letters(number: int) -> str:
    """Three capitals for `number`, to keep dblp keys unique the way dblp's initials do."""
    text = ""
    for _ in range(3):
        number, rest = divmod(number, 26)
        text = chr(ord("A") + rest) + text
    return text


def proceedings_id(venue: str, year: int) -> int:
    """The seven-digit proceedings number ACM puts in its DOIs (10.1145/3651890.xxxxxxx)."""
    return 3650000 + 1000 * sorted(DBLP_STREAM).index(venue) + 10 * (year - 2020)


@cache
def synthetic_paper(number: int) -> SyntheticPaper:
    digest = synthetic_digest(number)
    venue, year = digest["venue"], digest["year"]
    authors = tuple(
        SyntheticAuthor(
            given=_GIVEN[(number + 7 * position) % len(_GIVEN)],
            family=_FAMILY[(3 * number + position) % len(_FAMILY)],
            orcid=_orcid(number * AUTHORS_PER_PAPER + position) if position % 3 == 0 else "",
            institution=(
                f"Synthetic University {(number + position) % 37}"
                if position % 2 == 0
                else f"Synthetic Lab {(number + position) % 11}"
            ),
            dblp_homonym=f"{1 + number % 9:04d}" if (number + position) % 10 == 0 else "",
        )
        for position in range(AUTHORS_PER_PAPER)
    )
    title = digest["title"]["en"]
    doi = (
        ""
        if venue in VENUES_WITHOUT_DOIS
        else f"10.5555/{proceedings_id(venue, year)}.{3670000 + number}"
    )
    first_page = 1 + (number // 4) % 60 * 15
    sha = hashlib.sha1(f"synthetic-paper-{number}".encode()).hexdigest()
    return SyntheticPaper(
        number=number,
        title=title,
        venue=venue,
        year=year,
        doi=doi,
        dblp_key=f"conf/{DBLP_STREAM[venue]}/{authors[0].family}{_letters(number)}{year % 100}",
        authors=authors,
        abstract=(
            f"[Synthetic] {digest['summary']['en']} We describe the design of system "
            f"{number:05d}, evaluate it on a {8 << (number % 6)}-node testbed, and report where "
            "it helps and where it does not."
        ),
        pages=f"{first_page}-{first_page + 14}",
        arxiv_id=f"{year % 100}{1 + number % 12:02d}.{number:05d}" if number % 3 == 0 else "",
        openalex_id=f"W{4390000000 + number}",
        semantic_scholar_id=sha,
        corpus_id=268000000 + number,
        in_semantic_scholar=number % 50 != 18,  # even numbers: never NSDI (odd)
    )
