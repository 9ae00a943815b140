"""What real answers showed about record quality, each with a recorded answer of that shape."""

import pytest
import responses

from sync.fetching import Fetch
from sync.sources.base import PaperQuery
from tests.support.upstream import source

from .recorded import load

PLANT = PaperQuery(
    paper_id=1,
    title="Plant Names Revisited (Lindb.) Lindb.",
    venue="SIGCOMM",
    year=2024,
    doi="10.5555/quirks.1",
)


pytestmark = pytest.mark.usefixtures("fresh_politeness")


@responses.activate
def test_dblp_old_shape_objects_are_read_and_a_broken_hit_is_skipped_not_fatal():
    responses.get("https://dblp.org/search/publ/api", json=load("dblp/search_old_shape.json"))
    dblp = source("dblp")
    records = dblp.table_of_contents("SIGCOMM", 2024)
    assert [r.title for r in records] == [
        "Plant Names Revisited (Lindb.) Lindb.",  # DBLP's own period dropped, the title's kept
        "Sequencing Lindbergia",
    ]
    assert records[0].venue == "Taxon"
    assert records[0].doi == "10.5555/old.1"
    assert records[1].venue == "Taxon Supplement"
    assert [a.name for a in records[1].authors] == ["Lars Lindberg", "Eva Lindberg"]
    assert records[1].ids["arxiv_id"] == "0101.00001"
    assert dblp.records_skipped == 1


@responses.activate
def test_a_malformed_dblp_hit_loses_no_other_source_s_answer_for_the_batch():
    responses.get("https://dblp.org/search/publ/api", json=load("dblp/search_old_shape.json"))
    responses.get("https://api.crossref.org/works", json=load("crossref/works_quirks.json"))
    fetch = Fetch([PLANT], ["dblp", "crossref"]).start()
    (answers,) = list(fetch)
    assert answers.records["crossref"].doi == "10.5555/quirks.1"
    assert answers.records["dblp"].ids["dblp_key"] == "journals/taxon/Lindberg99"
    assert answers.errors == {}


@responses.activate
def test_crossref_names_suffixes_titles_and_a_broken_item():
    responses.get("https://api.crossref.org/works", json=load("crossref/works_quirks.json"))
    crossref = source("crossref")
    record = crossref.fetch([PLANT]).records[1]
    # The nameless author (only `sequence`) and the consortium in `name` are not authors.
    assert [a.name for a in record.authors] == ["Lars Lindberg", "John Smith III"]
    assert record.authors[1].family == "Smith"
    assert record.title == "Plant Names Revisited (Lindb.) Lindb."  # not DBLP: period kept
    assert record.abstract == "Names of plants are revisited."
    assert crossref.records_skipped == 1  # the item whose authors are bare strings


@responses.activate
def test_openalex_venue_abstract_heading_and_author_sanity():
    responses.get("https://api.openalex.org/works", json=load("openalex/works_quirks.json"))
    record = source("openalex").fetch([PLANT]).records[1]
    assert record.venue == "Journal of Composed Examples"
    assert record.abstract == "Names of plants are revisited."
    assert record.title == "Plant Names Revisited (Lindb.) Lindb."
    # An affiliation string and an institution are not authors; an id in parentheses goes.
    assert [a.name for a in record.authors] == ["Lars Lindberg", "Mihai G Netea"]
    assert record.authors[1].affiliations == ("Radboud University Nijmegen",)
