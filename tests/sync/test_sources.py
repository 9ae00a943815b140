"""Each source client against its recorded responses, quirks included (HTTP via `responses`)."""

import dataclasses
import json
from urllib.parse import parse_qs, urlsplit

import pytest
import responses

from sync.sources.base import PaperQuery
from sync.sources.openalex import abstract_from_inverted_index
from tests.support.upstream import source

from .recorded import FIXTURES, load

BYTESCALE = PaperQuery(
    paper_id=1,
    title="ByteScale: Communication-Efficient Scaling of LLM Training with a 2048K Context "
    "Length on 16384 GPUs",
    venue="SIGCOMM",
    year=2025,
    doi="10.1145/3718958.3750471",
)
CRUX = PaperQuery(
    paper_id=2,
    title="Crux: GPU-Efficient Communication Scheduling for Deep Learning Training",
    venue="SIGCOMM",
    year=2024,
)
SWING = PaperQuery(
    paper_id=3,
    title="Swing: Short-cutting Rings for Higher Bandwidth Allreduce",
    venue="NSDI",
    year=2024,
)

SIBLING = PaperQuery(  # asked for in the same DOI batch as ByteScale
    paper_id=4,
    title="A Sibling Paper of the Same Proceedings",
    venue="SIGCOMM",
    year=2025,
    doi="10.1145/3718958.3750472",
)


pytestmark = pytest.mark.usefixtures("fresh_politeness")


@responses.activate
def test_dblp_reads_a_toc_with_a_single_hit_as_an_object():
    responses.get("https://dblp.org/search/publ/api", json=load("dblp/toc_sigcomm2024.json"))
    result = source("dblp").fetch([CRUX])
    record = result.records[2]
    assert record.doi == "10.1145/3651890.3672239"
    assert record.title.endswith("Deep Learning Training")  # trailing period dropped
    assert [a.name for a in record.authors] == ["Jiamin Cao", "Yu Guan", "Kun Qian"]
    assert record.ids["dblp_key"] == "conf/sigcomm/CaoGQ24"
    assert "toc:db/conf/sigcomm/sigcomm2024.bht:" in responses.calls[0].request.url.replace(
        "%3A", ":"
    ).replace("%2F", "/")


@responses.activate
def test_dblp_single_author_object_and_homonym_suffix():
    responses.get("https://dblp.org/search/publ/api", json=load("dblp/toc_sigcomm2025.json"))
    records = source("dblp").table_of_contents("SIGCOMM", 2025)
    assert [a.name for a in records[2].authors] == ["Wei Wang"]
    assert (records[2].authors[0].given, records[2].authors[0].family) == ("Wei", "Wang")
    assert records[0].authors[0].name == "Hao Ge"
    assert records[1].links == [("DBLP", "https://dblp.org/rec/conf/sigcomm/SinghviDC25")]


@responses.activate
def test_dblp_names_are_split_into_given_and_family():
    """DBLP sends each name whole; a person's is split (a particle stays with the family)."""
    responses.get("https://dblp.org/search/publ/api", json=load("dblp/toc_nsdi2024.json"))
    records = source("dblp").table_of_contents("NSDI", 2024)
    swing = next(r for r in records if r.title.startswith("Swing"))
    assert [(a.given, a.family) for a in swing.authors] == [
        ("Daniele", "De Sensi"),
        ("Tommaso", "Bonato"),
        ("Torsten", "Hoefler"),
    ]
    assert all(a.family for record in records for a in record.authors)


@responses.activate
def test_dblp_empty_toc_has_no_hit_key():
    responses.get("https://dblp.org/search/publ/api", json=load("dblp/empty.json"))
    assert source("dblp").table_of_contents("ISCA", 2025) == []


@responses.activate
def test_crossref_batches_dois_and_reads_jats_and_null_dates():
    responses.get("https://api.crossref.org/works", json=load("crossref/works_sigcomm.json"))
    falcon = PaperQuery(
        paper_id=4,
        title="Falcon: A Reliable, Low Latency Hardware Transport",
        venue="SIGCOMM",
        year=2025,
        doi="10.1145/3718958.3754353",
    )
    crossref = source("crossref")
    result = crossref.fetch([BYTESCALE, falcon])
    assert crossref.requests_made == 1  # one filter=doi:A,doi:B request for both
    assert "doi%3A10.1145%2F3718958.3750471%2Cdoi%3A10.1145%2F3718958.3754353" in (
        responses.calls[0].request.url
    )
    assert "mailto=sync-tests%40example.org" in responses.calls[0].request.url
    bytescale = result.records[1]
    assert bytescale.year == 2025  # issued was [[null]]; published-online has the year
    assert bytescale.abstract.startswith("Scaling long-context training")
    assert "&amp;" not in bytescale.abstract and "<" not in bytescale.abstract
    assert bytescale.authors[0].orcid == "0000-0002-1825-0097"
    assert bytescale.authors[0].affiliations == ("Peking University",)
    assert result.records[4].authors[0].orcid == "0000-0001-5109-3700"


@responses.activate
def test_crossref_skips_title_search_for_venues_without_dois():
    crossref = source("crossref")
    assert crossref.fetch([SWING]).records == {}
    assert crossref.requests_made == 0


@responses.activate
def test_crossref_names_the_papers_it_will_not_search_before_its_first_request():
    """A batch writes them meanwhile, not after Crossref's last title search (one a request)."""
    crossref = source("crossref")
    placed = dataclasses.replace(CRUX, paper_id=5, ids={"dblp_key": "conf/sigcomm/CaoGQ24"})
    answers = crossref.fetch_each([BYTESCALE, CRUX, SWING, placed])
    papers, result = next(answers)
    assert sorted(papers) == [CRUX.paper_id, SWING.paper_id]  # not placed by DBLP; no DOIs
    assert result.records == {} and result.errors == {} and not result.retry_later
    assert crossref.requests_made == 0 and not responses.calls


@responses.activate
def test_openalex_rebuilds_inverted_abstracts_and_ignores_preprints():
    responses.get("https://api.openalex.org/works", json=load("openalex/search_swing.json"))
    placed = PaperQuery(**{**SWING.__dict__, "ids": {"dblp_key": "conf/nsdi/SensiBH24"}})
    openalex = source("openalex")
    assert openalex.fetch([SWING]).records == {}  # not placed by DBLP: no costly title search
    assert openalex.requests_made == 0
    record = openalex.fetch([placed]).records[3]
    sent = parse_qs(urlsplit(responses.calls[0].request.url).query)["filter"][0]
    phrase = '"swing short cutting rings for higher bandwidth allreduce"'
    assert sent.startswith(f"title.search:{phrase}")  # one boolean title search
    assert record.ids["openalex_id"] == "W4396000002"  # the NSDI paper, not the arXiv preprint
    assert record.abstract == "Allreduce is a bandwidth-bound collective."
    assert record.authors[0].orcid == "0000-0002-4456-7890"
    assert record.authors[1].affiliations == ("ETH Zurich",)


def test_inverted_index_survives_junk():
    assert abstract_from_inverted_index({"b": [1], "a": [0], "x": "junk"}) == "a b"
    assert abstract_from_inverted_index(None) == ""


@responses.activate
def test_semantic_scholar_batch_has_null_for_unknown_ids():
    batch = load("semanticscholar/batch.json")
    responses.post("https://api.semanticscholar.org/graph/v1/paper/batch", json=batch)
    unknown = PaperQuery(paper_id=9, title="Unknown", venue="SIGCOMM", year=2025, doi="10.1/none")
    crux = PaperQuery(**{**CRUX.__dict__, "doi": "10.1145/3651890.3672239"})
    s2 = source("semanticscholar")
    result = s2.fetch([BYTESCALE, unknown, crux])
    assert s2.requests_made == 1
    sent = json.loads(responses.calls[0].request.body)
    assert sent["ids"] == [
        "DOI:10.1145/3718958.3750471",
        "DOI:10.1/none",
        "DOI:10.1145/3651890.3672239",
    ]
    assert set(result.records) == {1, 2}
    assert result.records[1].ids["arxiv_id"] == "2502.21231"
    assert result.errors == {}


@responses.activate
def test_semantic_scholar_title_match_and_404_for_no_match():
    url = "https://api.semanticscholar.org/graph/v1/paper/search/match"
    responses.get(url, json=load("semanticscholar/match_swing.json"))
    responses.get(url, status=404, json=load("semanticscholar/match_not_found.json"))
    other = PaperQuery(paper_id=5, title="No Such Paper", venue="NSDI", year=2024)
    result = source("semanticscholar").fetch([SWING, other])
    assert result.records[3].ids["dblp_key"] == "conf/nsdi/SensiBH24"
    assert 5 not in result.records and result.errors == {}


@responses.activate
@pytest.mark.parametrize(
    "reshape",
    [
        lambda answer: answer["data"],  # the matches without the object around them
        lambda answer: {"data": answer["data"][0]},  # one match, not a list of them
    ],
    ids=["list", "data-object"],
)
def test_semantic_scholar_title_match_of_another_shape_is_named_as_the_others_name_it(reshape):
    url = "https://api.semanticscholar.org/graph/v1/paper/search/match"
    responses.get(url, json=reshape(load("semanticscholar/match_swing.json")))
    result = source("semanticscholar").fetch([SWING])
    assert result.records == {}
    assert result.errors[SWING.paper_id].startswith("Semantic Scholar: unexpected response shape")
    assert result.retry_later == set()


@responses.activate
def test_html_and_truncated_bodies_are_errors_not_crashes():
    responses.get(
        "https://api.crossref.org/works",
        status=200,
        content_type="text/html",
        body=(FIXTURES / "errors" / "502.html").read_text(),
    )
    responses.get(
        "https://api.openalex.org/works",
        status=200,
        content_type="application/json",
        body=(FIXTURES / "errors" / "truncated.json").read_text(),
    )
    crossref = source("crossref").fetch([BYTESCALE])
    openalex = source("openalex").fetch([BYTESCALE])
    assert crossref.records == {} and "instead of JSON" in crossref.errors[1]
    assert openalex.records == {} and "malformed JSON" in openalex.errors[1]


def recorded_with(path: str, key: str, value) -> dict:
    """A recorded answer (each API's own schema) with its list of works at `key` replaced."""
    data = load(path)
    *outer, last = key.split(".")
    node = data
    for part in outer:
        node = node[part]
    node[last] = value(node[last])
    return data


@responses.activate
@pytest.mark.parametrize(
    "name, url, body",
    [
        # the list of works sent as its first work alone, or missing
        (
            "crossref",
            "https://api.crossref.org/works",
            recorded_with("crossref/works_sigcomm.json", "message.items", lambda v: v[0]),
        ),
        (
            "openalex",
            "https://api.openalex.org/works",
            recorded_with("openalex/works_by_doi.json", "results", lambda v: v[0]),
        ),
        (
            "openalex",
            "https://api.openalex.org/works",
            recorded_with("openalex/works_by_doi.json", "results", lambda v: None),
        ),
    ],
)
def test_json_of_another_shape_is_an_error_for_every_paper_of_the_batch(name, url, body):
    responses.get(url, json=body)
    asked = source(name)
    result = asked.fetch([BYTESCALE, SIBLING])
    assert result.records == {}
    assert set(result.errors) == {1, 4}
    assert asked.display_name in {"Crossref", "DBLP", "OpenAlex", "Semantic Scholar"}
    assert result.errors[1].startswith(f"{asked.display_name}: unexpected response shape")
    assert result.retry_later == set()  # the same answer would come back: no retry


@responses.activate
def test_a_failure_that_says_retry_later_marks_every_paper_of_the_batch():
    responses.get(
        "https://api.crossref.org/works", status=429, headers={"Retry-After": "3600"}, body=""
    )
    result = source("crossref").fetch([BYTESCALE, SIBLING])
    assert result.records == {}
    assert set(result.errors) == {1, 4}
    assert result.retry_later == {1, 4}
