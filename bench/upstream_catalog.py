"""The stand-in upstream's records for the synthetic papers, in each API's own schema.

Every record is shaped like the recorded responses in tests/fixtures/ (see its README for where
each field comes from) and carries the quirks the sync copes with there: DBLP's trailing period,
homonym numbers and single authors as objects, Crossref's JATS abstracts and `[[null]]` dates,
OpenAlex's inverted-index abstracts, URL ids and same-titled preprints, Semantic Scholar's
`null` for papers it lacks. USENIX papers have no DOI anywhere and no Crossref record. No source
lacks a paper it would have to find by title (or among a batch's answers): synthetic titles
differ in little but their number, so the matcher would rightly take a sibling for it.

Every 50th paper has an update notice upstream, as Crossref's `updated-by` lists them
(tests/fixtures/crossref/works_notices.json): by turns a retraction from Retraction Watch (which
OpenAlex flags `is_retracted` too), a publisher's correction, and an expression of concern in
an older answer's shape (no `source`). `flip_notices` switches 1% of papers' notices on or off
between two syncs, as upstream sees notices issued and withdrawn.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from tests.standin import Catalog

from .synthetic_papers import CONTAINER_TITLE, DBLP_STREAM, S2_VENUE, SyntheticPaper

NSDI_SOURCE = "Symposium on Networked Systems Design and Implementation"
NOTICE_EVERY = 50  # papers with an update notice upstream: every 50th
NOTICE_KINDS = ("retraction", "correction", "expression_of_concern")


def has_notice(paper: SyntheticPaper) -> bool:
    """Whether the paper's notice is listed upstream before any `flip_notices`."""
    return paper.number % NOTICE_EVERY == 0


def flipped(paper: SyntheticPaper) -> bool:
    """The 1% of papers `flip_notices` switches: half lose their notice, half gain one."""
    return paper.number % 200 in (0, 101)


def notice_kind(paper: SyntheticPaper) -> str:
    return NOTICE_KINDS[(paper.number // NOTICE_EVERY) % len(NOTICE_KINDS)]


def updated_by(paper: SyntheticPaper) -> list[dict]:
    """The paper's Crossref `updated-by`: one notice, by turns of each kind and source."""
    kind = notice_kind(paper)
    day = datetime(paper.year, 1 + paper.number % 12, 1 + paper.number % 28, tzinfo=UTC)
    notice = {
        "DOI": f"10.5555/notice.{paper.number:05d}",
        "type": kind,
        "label": kind.replace("_", " ").capitalize(),
        "updated": {
            "date-parts": [[day.year, day.month, day.day]],
            "date-time": day.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "timestamp": int(day.timestamp() * 1000),
        },
    }
    if kind == "retraction":
        notice.update({"source": "retraction-watch", "record-id": str(60000 + paper.number)})
    elif kind == "correction":
        notice["source"] = "publisher"
    return [notice]


def _container(paper: SyntheticPaper) -> str:
    if paper.venue == "NSDI":
        return (
            f"{paper.year % 100}th USENIX Symposium on Networked Systems Design and Implementation"
        )
    ordinal = {2024: "Ninth", 2025: "Tenth", 2026: "Eleventh"}[paper.year]
    return CONTAINER_TITLE[paper.venue].format(year=paper.year, ordinal=ordinal)


def dblp_stream(paper: SyntheticPaper) -> str:
    name = DBLP_STREAM[paper.venue]
    return f"conf/{name}/{name}{paper.year}"


def dblp_hit(paper: SyntheticPaper) -> dict:
    n = paper.number
    authors = [
        {
            "@pid": f"{300 + (n * 6 + i) % 600}/{(n * 6 + i) % 9000}",
            "text": f"{a.name} {a.dblp_homonym}".strip(),
        }
        for i, a in enumerate(paper.authors)
    ]
    ee = [f"https://doi.org/{paper.doi}"] if paper.doi else [paper.landing_page]
    if paper.arxiv_id and n % 2:
        ee.append(f"https://arxiv.org/abs/{paper.arxiv_id}")
    info = {
        "authors": {"author": authors},
        "title": f"{paper.title}.",
        "venue": paper.venue,
        "pages": paper.pages,
        "year": str(paper.year),
        "type": "Conference and Workshop Papers",
        "access": "open" if paper.venue == "NSDI" else "closed",
        "key": paper.dblp_key,
        **({"doi": paper.doi} if paper.doi else {}),
        "ee": ee[0] if len(ee) == 1 else ee,
        "url": f"https://dblp.org/rec/{paper.dblp_key}",
    }
    return {"@score": "1", "@id": str(5200000 + n), "info": info, "url": f"URL#{5200000 + n}"}


def _abstract_words(paper: SyntheticPaper) -> list[str]:
    return paper.abstract.split()


def crossref_work(paper: SyntheticPaper) -> dict:
    date = [[paper.year, 1 + paper.number % 12, 1 + paper.number % 28]]
    authors = [
        {
            "given": a.given,
            "family": a.family,
            "sequence": "first" if i == 0 else "additional",
            "affiliation": [{"name": a.institution}] if i % 4 != 3 else [],
            **(
                {"ORCID": f"https://orcid.org/{a.orcid}", "authenticated-orcid": i == 0}
                if a.orcid
                else {}
            ),
        }
        for i, a in enumerate(paper.authors)
    ]
    return {
        "DOI": paper.doi,
        "type": "proceedings-article",
        "title": [paper.title],
        "container-title": [_container(paper)],
        "author": authors,
        "abstract": "<jats:title>Abstract</jats:title><jats:p>"
        + paper.abstract.replace("&", "&amp;")
        + "</jats:p>",
        # Some deposits carry no issued date at all, only the online one.
        "issued": {"date-parts": [[None]] if paper.number % 7 == 0 else date},
        "published-online": {"date-parts": date},
        "page": paper.pages,
        "prefix": paper.doi.split("/", 1)[0],
        "URL": f"https://doi.org/{paper.doi}",
        **({"updated-by": updated_by(paper)} if has_notice(paper) else {}),
    }


def _institution(name: str, seed: int) -> dict:
    ident = f"https://openalex.org/I{4200000000 + seed}"
    return {
        "id": ident,
        "display_name": name,
        "ror": f"https://ror.org/0{seed:08d}"[:25],
        "country_code": ("US", "CN", "DE", "CH", "JP")[seed % 5],
        "type": "education" if name.startswith("Synthetic University") else "facility",
        "lineage": [ident],
    }


def openalex_works(paper: SyntheticPaper) -> list[dict]:
    """The paper's Work, and for some papers its arXiv preprint: a second Work, same title."""
    n = paper.number
    work_id = f"https://openalex.org/{paper.openalex_id}"
    doi_url = f"https://doi.org/{paper.doi}" if paper.doi else None
    index: dict[str, list[int]] = {}
    for position, word in enumerate(_abstract_words(paper)):
        index.setdefault(word, []).append(position)
    authorships = []
    for i, a in enumerate(paper.authors):
        seed = sum(map(ord, a.institution)) * 7  # one id per institution name
        institutions = [_institution(a.institution, seed)] if i != 5 else []
        orcid = a.orcid if (paper.venue == "NSDI" or i == 0) else ""
        authorships.append(
            {
                "author_position": "first" if i == 0 else ("last" if i == 5 else "middle"),
                "author": {
                    "id": f"https://openalex.org/A{5100000000 + n * 6 + i}",
                    "display_name": a.name,
                    "orcid": f"https://orcid.org/{orcid}" if orcid else None,
                },
                "institutions": institutions,
                "countries": [inst["country_code"] for inst in institutions],
                "is_corresponding": i == 0,
                "raw_author_name": a.name,
                "raw_affiliation_strings": [a.institution],
                "affiliations": [
                    {"raw_affiliation_string": a.institution, "institution_ids": [inst["id"]]}
                    for inst in institutions
                ],
            }
        )
    source = {
        "id": f"https://openalex.org/S{4363600000 + sorted(DBLP_STREAM).index(paper.venue)}",
        "display_name": NSDI_SOURCE if paper.venue == "NSDI" else _container(paper),
        "type": "conference",
    }
    primary = {
        "is_oa": paper.venue == "NSDI",
        "landing_page_url": paper.landing_page,
        "pdf_url": None,
        "source": source,
    }
    locations = [primary]
    if paper.arxiv_id:
        locations.append(
            {
                "is_oa": True,
                "landing_page_url": f"https://arxiv.org/abs/{paper.arxiv_id}",
                "pdf_url": f"https://arxiv.org/pdf/{paper.arxiv_id}",
                "source": None,
            }
        )
    works = [
        {
            "id": work_id,
            "doi": doi_url,
            "title": paper.title,
            "display_name": paper.title,
            "publication_year": paper.year,
            "type": "article",
            "ids": {"openalex": work_id, **({"doi": doi_url} if doi_url else {})},
            "authorships": authorships,
            "abstract_inverted_index": index if n % 5 else None,
            "primary_location": primary,
            "locations": locations,
            "is_retracted": has_notice(paper) and notice_kind(paper) == "retraction",
        }
    ]
    if paper.arxiv_id and n % 2 == 0:
        preprint_id = f"https://openalex.org/W{4380000000 + n}"
        arxiv_doi = f"https://doi.org/10.48550/arxiv.{paper.arxiv_id}"
        works.append(
            {
                **works[0],
                "id": preprint_id,
                "doi": arxiv_doi,
                "publication_year": paper.year - 1,
                "type": "preprint",
                "is_retracted": False,
                "ids": {"openalex": preprint_id, "doi": arxiv_doi},
                "primary_location": locations[-1],
                "locations": locations[-1:],
            }
        )
    return works


def semantic_scholar_paper(paper: SyntheticPaper) -> dict:
    external = {"DBLP": paper.dblp_key, "CorpusId": paper.corpus_id}
    if paper.doi:
        external["DOI"] = paper.doi
    if paper.arxiv_id:
        external["ArXiv"] = paper.arxiv_id
    pdf = paper.number % 4 == 0
    return {
        "paperId": paper.semantic_scholar_id,
        "externalIds": external,
        "url": f"https://www.semanticscholar.org/paper/{paper.semantic_scholar_id}",
        "title": paper.title,
        "venue": S2_VENUE[paper.venue],
        "year": paper.year,
        "authors": [
            {"authorId": str(2300000000 + paper.number * 6 + i), "name": a.name}
            for i, a in enumerate(paper.authors)
        ],
        "abstract": paper.abstract if paper.number % 3 else None,
        "publicationTypes": ["Conference"],
        "openAccessPdf": (
            {"url": f"https://arxiv.org/pdf/{paper.arxiv_id}", "status": "GREEN"}
            if pdf and paper.arxiv_id
            else {"url": "", "status": None}
        ),
    }


def flip_notices(catalog: Catalog, papers: Iterable[SyntheticPaper]) -> int:
    """Switch the notice of the `flipped` papers upstream (on if it was off, off if on): their
    Crossref `updated-by` and OpenAlex's `is_retracted`; how many papers were switched."""
    count = 0
    for paper in papers:
        if not flipped(paper):
            continue
        count += 1
        listed = paper.doi and "updated-by" in catalog.crossref_by_doi[paper.doi]
        retracted = catalog.openalex_by_id[paper.openalex_id]["is_retracted"]
        on = not (listed or retracted)
        if paper.doi:
            catalog.set_notices(paper.doi, updated_by(paper) if on else [])
        catalog.openalex_by_id[paper.openalex_id]["is_retracted"] = (
            on and notice_kind(paper) == "retraction"
        )
    return count


def expected_notices(
    papers: Iterable[SyntheticPaper], *, flipped_once: bool = False
) -> set[tuple[str, str, str]]:
    """(title, type, source) of every notice a sync should find for `papers`: Crossref's for
    papers with a DOI (an expression of concern without `source` is the publisher's), OpenAlex's
    flag for a retracted paper Crossref does not hold; after one `flip_notices` if asked."""
    expected = set()
    for paper in papers:
        if has_notice(paper) == (flipped_once and flipped(paper)):
            continue
        kind = notice_kind(paper)
        if paper.doi:
            source = "retraction-watch" if kind == "retraction" else "publisher"
            expected.add((paper.title, kind, source))
        elif kind == "retraction":
            expected.add((paper.title, "retraction", "openalex"))
    return expected


def synthetic_catalog(papers: Iterable[SyntheticPaper]) -> Catalog:
    """What each source knows about `papers`, as the stand-in serves it."""
    catalog = Catalog()
    for paper in papers:
        catalog.dblp.setdefault(dblp_stream(paper), []).append(dblp_hit(paper))
        if paper.doi:
            catalog.crossref.append(crossref_work(paper))
        catalog.openalex.extend(openalex_works(paper))
        if paper.in_semantic_scholar:
            catalog.semanticscholar.append(semantic_scholar_paper(paper))
    catalog.index()
    return catalog
