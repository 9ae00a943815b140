"""Citations say what happened to a paper: every format carries its update notices (BibTeX and
CSL-JSON `note`, RIS `N1`, the formatted text after the reference), each read back by its own
parser; they cite the version of record, and a paper known only as a preprint as one."""

import json

import jsonschema
import pytest
import rispy
import yaml
from openapi_core import Config, OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

from cms.api.schema import SCHEMA_PATH
from cms.digests.models import DigestPage
from cms.papers.models import PaperLink
from tests.support.notices import CONCERN, CORRECTION, OPENALEX_FLAG, RETRACTION, add_notice
from tests.support.paper_examples import fill_in_odin

from .test_citations import CSL_JSON, CSL_SCHEMA, NSDI_URL, ODIN_DOI, cite, parse_bibtex

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uncached_api")]


@pytest.fixture
def odin():
    """Odin's paper with a DOI, an arXiv id, authors and a PDF link (fill_in_odin)."""
    return fill_in_odin().paper


@pytest.fixture
def nsdi():
    """An NSDI paper: no DOI, cited by its publisher's page."""
    page = DigestPage.objects.filter(
        paper__venue="NSDI", paper__doi="", locale__language_code="en"
    ).first()
    PaperLink.objects.create(paper=page.paper, label="Paper", url=NSDI_URL)
    return page.paper


RETRACTION_NOTE = (
    "Retracted: see https://doi.org/10.1016/s0140-6736(10)60175-4 (Retraction Watch, 2010-02-06)"
)
CORRECTION_NOTE = (
    "Corrected: see https://doi.org/10.1016/s0140-6736(04)15715-2 (publisher, 2004-03-06)"
)
CONCERN_NOTE = (
    "Expression of concern: see https://doi.org/10.5555/concern.2025.1 (publisher, 2025-05-01)"
)


def every_format(client, paper) -> dict[str, str]:
    """The paper's note as each format's own reader reads it back, and the two texts."""
    bibtex = parse_bibtex(cite(client, paper, format="bibtex").content.decode()).entries[0]
    (ris,) = rispy.loads(cite(client, paper, format="ris").content.decode())
    items = json.loads(cite(client, paper, format="csl-json").content)
    jsonschema.validate(items, CSL_SCHEMA)
    return {
        "bibtex": bibtex.fields_dict["note"].value if "note" in bibtex.fields_dict else None,
        "ris": "; ".join(ris.get("notes", [])) or None,
        "csl-json": items[0].get("note"),
        "acm": cite(client, paper, format="text", style="acm").content.decode(),
        "ieee": cite(client, paper, format="text", style="ieee").content.decode(),
    }


def test_a_retraction_is_in_all_four_formats_first_and_with_the_notice(client, odin):
    add_notice(odin, CORRECTION)
    add_notice(odin, RETRACTION)
    found = every_format(client, odin)
    expected = f"{RETRACTION_NOTE}; {CORRECTION_NOTE}"  # the most serious first
    assert found["ris"] == found["csl-json"] == expected
    # BibTeX escapes LaTeX's specials (none in these DOIs) and reads back as written.
    assert found["bibtex"] == expected
    for style in ("acm", "ieee"):
        text = found[style]
        assert text.endswith(f" {expected}.\n"), text  # after the reference, on its one line
        assert text.count("\n") == 1
        assert ODIN_DOI in text  # still the paper's own DOI


@pytest.mark.parametrize(
    ("notice", "note", "word"),
    [(CORRECTION, CORRECTION_NOTE, "Corrected"), (CONCERN, CONCERN_NOTE, "Expression of concern")],
    ids=["correction", "concern"],
)
def test_a_correction_or_a_concern_is_said_as_such(client, odin, notice, note, word):
    add_notice(odin, notice)
    found = every_format(client, odin)
    assert found["bibtex"] == found["ris"] == found["csl-json"] == note
    assert f"{word}: see https://doi.org/{notice['notice_doi']}" in found["acm"]
    assert "Retracted" not in found["ieee"]


def test_openalex_s_flag_without_a_notice_doi_still_says_retracted(client, odin):
    add_notice(odin, OPENALEX_FLAG)
    found = every_format(client, odin)
    assert found["csl-json"] == "Retracted (OpenAlex)"
    assert found["acm"].endswith(" Retracted (OpenAlex).\n")


def test_a_paper_without_notices_has_no_note(client, odin):
    found = every_format(client, odin)
    assert found["bibtex"] is found["ris"] is found["csl-json"] is None


def test_the_version_of_record_is_cited_when_a_preprint_is_known_too(client, odin):
    odin.preprint_doi = "10.48550/arxiv.2601.00001"
    odin.save()  # odin has an arXiv id and a DOI too (fill_in_odin)
    entry = parse_bibtex(cite(client, odin, format="bibtex").content.decode()).entries[0]
    assert entry.entry_type == "inproceedings"
    assert entry["doi"] == ODIN_DOI and entry["booktitle"] == "ACM SIGCOMM Conference"
    (item,) = json.loads(cite(client, odin, format="csl-json").content)
    assert (item["type"], item["DOI"]) == ("paper-conference", ODIN_DOI)


@pytest.fixture
def preprint(odin):
    """Odin known only as an arXiv preprint: no DOI of a published version, no publisher's
    page (its one link is the PDF on arXiv)."""
    odin.doi, odin.preprint_doi = "", "10.48550/arxiv.2601.00001"
    odin.save()
    PaperLink.objects.filter(paper=odin).update(url="https://arxiv.org/pdf/2601.00001")
    return odin


def test_a_paper_known_only_as_a_preprint_is_cited_as_one(client, preprint):
    add_notice(preprint, CORRECTION)
    entry = parse_bibtex(cite(client, preprint, format="bibtex").content.decode()).entries[0]
    assert entry.entry_type == "misc"
    assert entry["eprint"] == "2601.00001" and entry["archiveprefix"] == "arXiv"
    assert entry["doi"] == "10.48550/arxiv.2601.00001" and entry["publisher"] == "arXiv"
    assert "booktitle" not in entry.fields_dict  # SIGCOMM has not published it
    assert entry["note"] == CORRECTION_NOTE

    (record,) = rispy.loads(cite(client, preprint, format="ris").content.decode())
    assert record["type_of_reference"] == "UNPB"
    assert record["doi"] == "10.48550/arxiv.2601.00001"
    assert record["urls"] == ["https://arxiv.org/abs/2601.00001"]
    assert "secondary_title" not in record

    items = json.loads(cite(client, preprint, format="csl-json").content)
    jsonschema.validate(items, CSL_SCHEMA)
    assert items[0]["type"] == "article" and items[0]["number"] == "arXiv:2601.00001"
    assert "container-title" not in items[0]

    ieee = cite(client, preprint, format="text", style="ieee").content.decode()
    assert "arXiv:2601.00001" in ieee and "SIGCOMM" not in ieee


def test_a_paper_without_a_doi_but_with_its_publisher_s_page_is_not_a_preprint(client, nsdi):
    nsdi.arxiv_id = "2601.00002"  # an NSDI paper is published by USENIX, without a DOI
    nsdi.save()
    entry = parse_bibtex(cite(client, nsdi, format="bibtex").content.decode()).entries[0]
    assert entry.entry_type == "inproceedings" and "eprint" not in entry.fields_dict
    assert entry["publisher"] == "USENIX Association" and entry["url"] == NSDI_URL


def test_notes_and_preprints_conform_to_the_openapi_description(client, preprint):
    add_notice(preprint, RETRACTION)
    config = Config(extra_media_type_deserializers={CSL_JSON: lambda body, **_: json.loads(body)})
    openapi = OpenAPI.from_dict(
        yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8")), config=config
    )
    response = client.get(f"/api/v2/papers/{preprint.pk}/cite/", {"format": "csl-json"})
    (item,) = json.loads(response.content)
    assert (item["type"], item["note"]) == ("article", RETRACTION_NOTE)
    request = DjangoOpenAPIRequest(response.wsgi_request)
    openapi.validate_request(request)
    openapi.validate_response(request, DjangoOpenAPIResponse(response))
