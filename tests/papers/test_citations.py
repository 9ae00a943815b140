"""Citations of a paper: each format read back by its own parser, negotiation, caching, 400s,
and only papers a live public page shows."""

import json
from pathlib import Path

import bibtexparser
import jsonschema
import pytest
import rispy
import yaml
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors, SplitNameParts
from openapi_core import Config, OpenAPI
from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse
from wagtail.models import PageViewRestriction

from cms.api.schema import SCHEMA_PATH
from cms.digests.models import DigestPage
from cms.papers.citations import latex_escape
from cms.papers.models import Paper, PaperAuthor, PaperLink
from tests.support.factories import DRAFT, DigestPageFactory
from tests.support.paper_examples import fill_in_odin

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uncached_api")]

CSL_SCHEMA = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "csl" / "csl-data.json").read_text(encoding="utf-8")
)
ODIN_DOI = "10.1145/0000000.0000001"
CSL_JSON = "application/vnd.citationstyles.csl+json"
NSDI_URL = "https://www.usenix.org/conference/nsdi26/presentation/example"


@pytest.fixture
def odin():
    """Odin's paper with a DOI, and authors with diacritics, CJK and no name parts."""
    paper = fill_in_odin().paper
    PaperAuthor.objects.create(
        paper=paper,
        name="Jürgen Müller-Šťastný",
        given="Jürgen",
        family="Müller-Šťastný",
        sort_order=2,
    )
    PaperAuthor.objects.create(paper=paper, name="張偉", given="偉", family="張", sort_order=3)
    PaperAuthor.objects.create(paper=paper, name="李小龍", sort_order=4)
    return paper


@pytest.fixture
def nsdi():
    """A paper without a DOI (NSDI's), cited by its publisher's page."""
    page = DigestPage.objects.filter(
        paper__venue="NSDI", paper__doi="", locale__language_code="en"
    ).first()
    paper = page.paper
    PaperAuthor.objects.create(paper=paper, name="Grace Hopper", given="Grace", family="Hopper")
    PaperLink.objects.create(paper=paper, label="Paper", url=NSDI_URL)
    return paper


def cite(client, paper, expected_status=200, **params):
    response = client.get(f"/api/v2/papers/{paper.pk}/cite/", params)
    assert response.status_code == expected_status, response.content
    return response


def parse_bibtex(text: str) -> bibtexparser.Library:
    library = bibtexparser.parse_string(
        text,
        append_middleware=[LatexDecodingMiddleware(), SeparateCoAuthors(), SplitNameParts()],
    )
    assert not library.failed_blocks, [block.error for block in library.failed_blocks]
    assert len(library.entries) == 1
    return library


def test_bibtex_of_a_paper_with_a_doi_parses_back(client, odin):
    response = cite(client, odin, format="bibtex")
    assert response["Content-Type"] == "application/x-bibtex; charset=utf-8"
    text = response.content.decode("utf-8")
    # Names stay UTF-8, diacritics and CJK alike.
    assert "Müller-Šťastný, Jürgen" in text
    assert "張, 偉" in text and "{李小龍}" in text
    entry = parse_bibtex(text).entries[0]
    assert entry.entry_type == "inproceedings"
    assert entry.key == "lovelace2026odin"
    assert entry["title"] == odin.title
    assert entry["doi"] == ODIN_DOI
    assert entry["year"] == "2026"
    assert entry["booktitle"] == "ACM SIGCOMM Conference"
    assert "url" not in entry.fields_dict
    authors = [(name.last, name.first) for name in entry["author"]]
    assert authors == [
        (["Lovelace"], ["Ada"]),
        (["Turing"], ["Alan"]),
        (["Müller-Šťastný"], ["Jürgen"]),
        (["張"], ["偉"]),
        (["李小龍"], []),
    ]


def test_bibtex_escapes_latex_specials_and_keeps_capitals(client, odin):
    odin.title = "Odin: {Braces}, 100% Incast & $Cost_#1 in RDMA ~ NVLink \\ done"
    odin.save()
    text = cite(client, odin, format="bibtex").content.decode()
    title_line = next(line for line in text.splitlines() if line.strip().startswith("title"))
    for escaped in (r"\{Braces\}", r"100\%", r"\&", r"\$Cost\_\#1", r"\textbackslash"):
        assert escaped in title_line
    for escaped in ("{RDMA}", "{NVLink}"):
        assert escaped in title_line
    assert latex_escape("x^2~y") == r"x\textasciicircum{}2\textasciitilde{}y"
    # The braces stay balanced, so the entry parses and the title decodes back as written.
    entry = parse_bibtex(text).entries[0]
    assert entry["title"] == odin.title


def test_doi_and_url_are_verbatim(client, odin):
    odin.doi = "10.1000/a_b%c{d}"
    odin.save()
    text = cite(client, odin).content.decode()
    assert "doi = {10.1000/a_b%c%7Bd%7D}" in text  # no LaTeX escapes inside a link
    parse_bibtex(text)


def test_bibtex_of_a_paper_without_a_doi_has_its_url(client, nsdi):
    entry = parse_bibtex(cite(client, nsdi, format="bibtex").content.decode()).entries[0]
    assert entry["url"] == NSDI_URL
    assert "doi" not in entry.fields_dict
    assert entry["publisher"] == "USENIX Association"
    assert entry.key.startswith(f"hopper{nsdi.year}")


def test_key_is_stable_and_transliterated(client, odin):
    first = parse_bibtex(cite(client, odin).content.decode()).entries[0].key
    assert first == parse_bibtex(cite(client, odin).content.decode()).entries[0].key
    PaperAuthor.objects.filter(paper=odin).exclude(family="張").delete()
    assert parse_bibtex(cite(client, odin).content.decode()).entries[0].key == "zhang2026odin"


@pytest.mark.parametrize("which", ["odin", "nsdi"])
def test_ris_parses_back(client, request, which):
    paper = request.getfixturevalue(which)
    response = cite(client, paper, format="ris")
    assert response["Content-Type"] == "application/x-research-info-systems; charset=utf-8"
    assert response.content.startswith(b"TY  - CPAPER\n")  # a record starts with its type
    (record,) = rispy.loads(response.content.decode("utf-8"))
    assert record["type_of_reference"] == "CPAPER"
    assert record["title"] == paper.title
    assert record["year"] == str(paper.year)
    if paper.doi:
        assert record["doi"] == ODIN_DOI
        assert record["authors"][2:] == ["Müller-Šťastný, Jürgen", "張, 偉", "李小龍"]
        assert record["urls"] == [f"https://doi.org/{ODIN_DOI}"]
    else:
        assert "doi" not in record
        assert record["urls"] == [NSDI_URL]


FORGED_TITLE = "Odin\nER  - \nTY  - JOUR\nTI  - A forged record"


def test_a_title_or_name_stored_on_two_lines_cannot_forge_a_second_record(client, odin):
    """A row stored before titles and names were held to one line (or written by hand in the
    database) is exported on one line: rispy reads one record, the text citation one line."""
    Paper.objects.filter(pk=odin.pk).update(title=FORGED_TITLE)
    PaperAuthor.objects.filter(paper=odin, given="Jürgen").update(
        family="Müller\r\nER  - \r\nTY  - BOOK\u2028AU  - Mallory"
    )

    records = rispy.loads(cite(client, odin, format="ris").content.decode("utf-8"))
    text = cite(client, odin, format="text").content.decode("utf-8")
    bibtex = parse_bibtex(cite(client, odin, format="bibtex").content.decode("utf-8"))

    assert len(records) == 1
    (record,) = records
    assert record["type_of_reference"] == "CPAPER"
    assert record["title"] == "Odin ER - TY - JOUR TI - A forged record"
    assert "Müller ER - TY - BOOK AU - Mallory, Jürgen" in record["authors"]
    assert text.count("\n") == 1 and text.endswith("\n")
    assert "A forged record" in text
    assert "\n" not in bibtex.entries[0]["title"]


@pytest.mark.parametrize("which", ["odin", "nsdi"])
def test_csl_json_is_valid_csl_data(client, request, which):
    paper = request.getfixturevalue(which)
    response = cite(client, paper, format="csl-json")
    assert response["Content-Type"] == "application/vnd.citationstyles.csl+json; charset=utf-8"
    items = json.loads(response.content)
    jsonschema.validate(items, CSL_SCHEMA)
    (item,) = items
    assert item["type"] == "paper-conference"
    assert item["title"] == paper.title
    assert item["issued"] == {"date-parts": [[paper.year]]}
    if paper.doi:
        assert item["DOI"] == ODIN_DOI and "URL" not in item
        assert item["author"][3:] == [{"family": "張", "given": "偉"}, {"literal": "李小龍"}]
    else:
        assert item["URL"] == NSDI_URL and "DOI" not in item


def test_a_broken_item_fails_the_schema():
    """The vendored schema does reject what is not CSL data (so the test above can fail)."""
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate([{"id": "x", "type": "paper-conference", "author": "A"}], CSL_SCHEMA)


@pytest.mark.parametrize("which", ["odin", "nsdi"])
def test_text_in_acm_and_ieee_styles(client, request, which):
    paper = request.getfixturevalue(which)
    acm = cite(client, paper, format="text", style="acm")
    ieee = cite(client, paper, format="text", style="ieee")
    assert acm["Content-Type"] == ieee["Content-Type"] == "text/plain; charset=utf-8"
    acm, ieee = acm.content.decode(), ieee.content.decode()
    assert paper.title in acm and f"“{paper.title}”" in ieee  # IEEE quotes titles
    if paper.doi:
        assert "Ada Lovelace, Alan Turing, Jürgen Müller-Šťastný" in acm  # ACM: given family
        # IEEE: initials, except for a name given whole; CJK names family first, unabbreviated.
        assert "A. Lovelace, Alan Turing, J. Müller-Šťastný, 張偉, and 李小龍" in ieee
        assert "Jürgen Müller-Šťastný, 張偉, and 李小龍. 2026." in acm
        assert f"https://doi.org/{ODIN_DOI}" in acm and f"doi: {ODIN_DOI}" in ieee
    else:
        assert "Grace Hopper. " in acm and "G. Hopper, " in ieee
        assert NSDI_URL in acm and f"Available: {NSDI_URL}" in ieee
    assert cite(client, paper, format="text").content.decode() == acm  # ACM by default
    for text in (acm, ieee):  # one reference: no bibliography number glued to its start
        assert not text.startswith(("[", " ")), text


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"format": "endnote"}, "format must be one of bibtex, ris, csl-json, text"),
        ({"format": "text", "style": "apa"}, "style must be one of acm, ieee"),
        ({"style": "ieee"}, "style needs format=text"),
        ({"format": "ris", "style": "acm"}, "style needs format=text"),
        ({"locale": "zh-hant"}, "locale"),
        ({"format": ["bibtex", "ris"]}, "format is given more than once"),
    ],
)
def test_bad_parameters_are_400s_naming_them(client, odin, params, named):
    response = cite(client, odin, 400, **params)
    assert named in response.json()["message"]


@pytest.mark.parametrize(
    ("accept", "params"),
    [
        ("application/x-bibtex", {"format": "bibtex"}),
        ("application/x-research-info-systems", {"format": "ris"}),
        ("application/vnd.citationstyles.csl+json", {"format": "csl-json"}),
        ("text/x-bibliography; style=ieee", {"format": "text", "style": "ieee"}),
        ("text/x-bibliography", {"format": "text", "style": "acm"}),
    ],
)
def test_content_negotiation_on_the_paper(client, odin, accept, params):
    negotiated = client.get(f"/api/v2/papers/{odin.pk}/", HTTP_ACCEPT=accept)
    assert negotiated.status_code == 200
    assert negotiated["Content-Type"].split(";")[0] == accept.split(";")[0]
    assert negotiated.content == cite(client, odin, **params).content
    assert "Accept" in negotiated["Vary"]


def test_negotiated_errors_are_json(client, odin):
    for path, params, status in (
        (f"/api/v2/papers/{odin.pk}/", {"limit": "x"}, 400),
        ("/api/v2/papers/999999/", {}, 404),
    ):
        response = client.get(path, params, HTTP_ACCEPT="application/x-bibtex")
        assert response.status_code == status
        assert response["Content-Type"] == "application/json"
        assert response.json()["message"]


def test_a_paper_without_authors_has_no_empty_author_field(client, nsdi):
    nsdi.authors.all().delete()
    entry = parse_bibtex(cite(client, nsdi).content.decode()).entries[0]
    assert "author" not in entry.fields_dict
    assert entry.key.startswith(f"paper{nsdi.year}")


def test_json_stays_the_default_and_varies_on_accept(client, odin):
    for accept in ("application/json", "*/*", "application/json, text/plain, */*"):
        response = client.get(f"/api/v2/papers/{odin.pk}/", HTTP_ACCEPT=accept)
        assert response["Content-Type"] == "application/json"
        assert response.json()["doi"] == ODIN_DOI
        assert "Accept" in response["Vary"]
    bad_style = client.get(
        f"/api/v2/papers/{odin.pk}/", HTTP_ACCEPT="text/x-bibliography; style=apa"
    )
    assert bad_style.status_code == 400
    assert "style must be one of" in bad_style.json()["message"]


def test_negotiation_is_cached_per_accept(client, odin, settings):
    """The response cache keys on Accept: a cached JSON answer never goes to a BibTeX client."""
    settings.API_RESPONSE_CACHE_SECONDS = 60
    url = f"/api/v2/papers/{odin.pk}/"
    for _ in range(2):
        assert client.get(url)["Content-Type"] == "application/json"
        bibtex = client.get(url, HTTP_ACCEPT="application/x-bibtex")
        assert bibtex["Content-Type"].startswith("application/x-bibtex")


def test_etag_and_cache_control(client, odin):
    response = cite(client, odin, format="ris")
    # Cached like the rest of the API: the same Cache-Control as the paper's JSON.
    assert response["Cache-Control"]
    assert response["Cache-Control"] == client.get(f"/api/v2/papers/{odin.pk}/")["Cache-Control"]
    etag = response["ETag"]
    again = client.get(
        f"/api/v2/papers/{odin.pk}/cite/", {"format": "ris"}, HTTP_IF_NONE_MATCH=etag
    )
    assert again.status_code == 304
    other = cite(client, odin, format="bibtex")
    assert other["ETag"] != etag


def _hide(page: DigestPage, how: str) -> None:
    pages = [page, *page.get_translations()]
    if how == "unpublished":
        for each in pages:
            each.unpublish()
    elif how == "private":
        for each in pages:
            PageViewRestriction.objects.create(
                page=each, restriction_type=PageViewRestriction.PASSWORD, password="secret"
            )
    elif how == "topic unpublished":
        for each in pages:
            each.get_parent().unpublish()


@pytest.mark.parametrize("how", ["unpublished", "private", "topic unpublished"])
def test_a_paper_no_live_public_page_shows_is_not_citable(client, odin, how):
    page = DigestPage.objects.get(paper=odin, locale__language_code="en")
    assert cite(client, odin).status_code == 200
    _hide(page, how)
    assert cite(client, odin, 404).json()["message"]
    negotiated = client.get(f"/api/v2/papers/{odin.pk}/", HTTP_ACCEPT="application/x-bibtex")
    assert negotiated.status_code == 404


def test_a_paper_only_a_draft_shows_is_not_citable(client, odin):
    topic = DigestPage.objects.get(paper=odin, locale__language_code="en").get_parent()
    page = DigestPage.objects.get(paper=odin, locale__language_code="en")
    DigestPageFactory(
        parent=topic,
        title="Draft",
        short_name="Drafty",
        reading_minutes=3,
        summary="x",
        live=False,
        revision=DRAFT,
        revision__paper=odin,  # in the draft only
    )
    for each in [page, *page.get_translations()]:
        each.unpublish()
    assert cite(client, odin, 404).status_code == 404


def test_citations_conform_to_the_openapi_description(client, odin, nsdi):
    # openapi-core reads only application/json as JSON; CSL-JSON is JSON too.
    config = Config(extra_media_type_deserializers={CSL_JSON: lambda body, **_: json.loads(body)})
    openapi = OpenAPI.from_dict(
        yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8")), config=config
    )

    def conforms(path, expected_status=200, accept=None, **params):
        headers = {"HTTP_ACCEPT": accept} if accept else {}
        response = client.get(path, params, **headers)
        assert response.status_code == expected_status, response.content
        request = DjangoOpenAPIRequest(response.wsgi_request)
        if expected_status < 400:
            openapi.validate_request(request)
        openapi.validate_response(request, DjangoOpenAPIResponse(response))

    for paper in (odin, nsdi):
        cite_url = f"/api/v2/papers/{paper.pk}/cite/"
        for citation_format in ("bibtex", "ris", "csl-json", "text"):
            conforms(cite_url, format=citation_format)
        conforms(cite_url, format="text", style="ieee")
        for accept in ("application/x-bibtex", "application/vnd.citationstyles.csl+json"):
            conforms(f"/api/v2/papers/{paper.pk}/", accept=accept)
    conforms(f"/api/v2/papers/{odin.pk}/cite/", 400, format="nope")
    conforms("/api/v2/papers/999999/cite/", 404)


@pytest.fixture
def purged(settings):
    from tests.ops import purge_recorder

    settings.WAGTAILFRONTENDCACHE = {
        "recording": {"BACKEND": "tests.ops.purge_recorder.RecordingBackend"}
    }
    purge_recorder.purged_urls.clear()
    yield purge_recorder.purged_urls
    purge_recorder.purged_urls.clear()


def test_shared_caches_are_purged_of_a_changed_papers_citations(
    client, odin, purged, django_capture_on_commit_callbacks
):
    """The reader's cite URLs are purged when the paper changes or its digest is unpublished."""
    wanted = {
        f"http://testserver/api/v2/papers/{odin.pk}/cite/?format=bibtex",
        f"http://testserver/api/v2/papers/{odin.pk}/cite/?format=text&style=ieee",
        f"http://testserver/api/v2/papers/{odin.pk}/",
    }
    with django_capture_on_commit_callbacks(execute=True):
        odin.title = "A corrected title"
        odin.save()
    assert wanted <= set(purged)
    purged.clear()
    with django_capture_on_commit_callbacks(execute=True):
        DigestPage.objects.get(paper=odin, locale__language_code="en").unpublish()
    assert wanted - {f"http://testserver/api/v2/papers/{odin.pk}/"} <= set(purged)


@pytest.mark.parametrize("language", ["zh-hant", "en"])
def test_every_format_names_the_venue_by_its_own_name_in_any_language(client, odin, language):
    """A citation names the proceedings as published: under Accept-Language zh-hant BibTeX's
    booktitle was the translated label ("ACM SIGCOMM 研討會"), a publication that does not
    exist."""
    proper = "ACM SIGCOMM Conference"
    assert odin.venue == "SIGCOMM"
    header = {"HTTP_ACCEPT_LANGUAGE": language}
    url = f"/api/v2/papers/{odin.pk}/cite/"
    bibtex = parse_bibtex(client.get(url, **header).content.decode())
    assert bibtex.entries[0]["booktitle"] == proper
    ris = rispy.loads(client.get(url, {"format": "ris"}, **header).content.decode())
    assert ris[0]["secondary_title"] == proper
    csl = json.loads(client.get(url, {"format": "csl-json"}, **header).content)
    assert csl[0]["container-title"] == proper
    for style in ("acm", "ieee"):
        text = client.get(url, {"format": "text", "style": style}, **header).content.decode()
        assert proper in text and "研討會" not in text


@pytest.mark.parametrize("language", ["zh-TW", "en"])
def test_a_citation_names_its_own_language_not_the_request_s(client, odin, language):
    """Content-Language names the content's language (RFC 9110, 8.5), as a page's does: a
    citation is the paper's metadata as published and the styles' English terms, the same
    bytes whoever asks; under Accept-Language zh-TW it said zh-hant."""
    header = {"HTTP_ACCEPT_LANGUAGE": language}
    url = f"/api/v2/papers/{odin.pk}/cite/"
    for params in ({}, {"format": "ris"}, {"format": "csl-json"}, {"format": "text"}):
        response = client.get(url, params, **header)
        assert response.status_code == 200
        assert response["Content-Language"] == "en", params
    negotiated = client.get(
        f"/api/v2/papers/{odin.pk}/", HTTP_ACCEPT="application/x-bibtex", **header
    )
    assert negotiated["Content-Language"] == "en"
    refused = client.get(url, {"format": "nope"}, **header)
    assert refused["Content-Language"] == ("zh-hant" if language == "zh-TW" else "en")
