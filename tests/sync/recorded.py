"""The recorded responses in tests/fixtures/ as the stand-in upstream's catalog."""

from __future__ import annotations

import json
from pathlib import Path

from tests.standin import Catalog

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def load(relative: str):
    return json.loads((FIXTURES / relative).read_text(encoding="utf-8"))


def _hits(relative: str) -> list[dict]:
    hits = load(relative)["result"]["hits"].get("hit", [])
    return hits if isinstance(hits, list) else [hits]


def recorded_catalog() -> Catalog:
    """Every recorded record once: DBLP tables of contents by stream, the other sources' works."""
    dblp = {
        f"conf/{path.stem.removeprefix('toc_').rstrip('0123456789')}/"
        f"{path.stem.removeprefix('toc_')}": _hits(f"dblp/{path.name}")
        for path in sorted((FIXTURES / "dblp").glob("toc_*.json"))
    }
    in_tocs = {hit["info"]["key"] for hits in dblp.values() for hit in hits}
    openalex = {
        work["id"]: work
        for name in ("works_by_doi", "search_swing")
        for work in load(f"openalex/{name}.json")["results"]
    }
    s2 = [paper for paper in load("semanticscholar/batch.json") if paper]
    s2 += load("semanticscholar/match_swing.json")["data"]
    return Catalog(
        dblp=dblp,
        dblp_other=[h for h in _hits("dblp/search_swing.json") if h["info"]["key"] not in in_tocs],
        crossref=load("crossref/works_sigcomm.json")["message"]["items"],
        openalex=list(openalex.values()),
        semanticscholar=[{k: v for k, v in p.items() if k != "matchScore"} for p in s2],
    )


def lookup_catalog() -> Catalog:
    """The recorded catalog and the papers an editor looks up (tests/sync/test_lookup.py):
    ones the seed does not have, in tables of contents, searches and the other sources."""
    catalog = recorded_catalog()
    for hit in _hits("dblp/lookup_tocs.json"):
        venue = hit["info"]["key"].split("/")[1]
        catalog.dblp.setdefault(f"conf/{venue}/{venue}{hit['info']['year']}", []).append(hit)
    catalog.dblp_other += _hits("dblp/lookup_search.json")
    catalog.crossref += load("crossref/works_lookup.json")["message"]["items"]
    catalog.openalex += load("openalex/works_lookup.json")["results"]
    catalog.semanticscholar += load("semanticscholar/batch_lookup.json")
    catalog.index()
    return catalog


def notices_fixture() -> list[dict]:
    """The recorded Crossref works of tests/fixtures/crossref/works_notices.json."""
    return load("crossref/works_notices.json")["message"]["items"]


def recorded_notices(doi: str) -> list[dict]:
    """The `updated-by` entries the recorded answer lists for the work `doi`."""
    return next(work for work in notices_fixture() if work["DOI"] == doi)["updated-by"]


def notices_catalog() -> Catalog:
    """The lookup catalog with the recorded notices: works updated by a retraction (Retraction
    Watch's and the publisher's), a correction and an expression of concern, the notices
    themselves (`update-to`), and a paper published at SIGCOMM with its arXiv and TechRxiv
    preprints related to it; OpenAlex's answers flag ByteScale retracted."""
    catalog = lookup_catalog()
    crossref = {work["DOI"]: work for work in catalog.crossref}
    crossref.update({work["DOI"]: work for work in notices_fixture()})
    openalex = {work["id"]: work for work in catalog.openalex}
    openalex.update({work["id"]: work for work in load("openalex/works_notices.json")["results"]})
    catalog.crossref, catalog.openalex = list(crossref.values()), list(openalex.values())
    catalog.index()
    return catalog
