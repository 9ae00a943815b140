"""Editors type an author's affiliations and ORCID in the paper form: the form takes only what
the API and the reader can print, and says so on the author's field."""

import pytest
from django.urls import reverse

from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS
from tests.support.users import member

from .test_paper_doi_form import NO_ROWS

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(client):
    client.force_login(member(EDITORS))
    return client


def add_paper_with_author(
    editor, affiliations: str, orcid: str = "", title: str = "A paper typed by hand", **fields
):
    data = {"title": title, "venue": "NSDI", "year": "2025", "doi": "", **NO_ROWS}
    data.update(
        {
            "authors-TOTAL_FORMS": "1",
            "authors-0-name": "Ada Lovelace",
            "authors-0-given": "",
            "authors-0-family": "",
            "authors-0-orcid": orcid,
            "authors-0-affiliations": affiliations,
            "authors-0-ORDER": "1",
            "authors-0-DELETE": "",
            "authors-0-id": "",
            **fields,
        }
    )
    return editor.post(reverse("wagtailsnippets_papers_paper:add"), data)


@pytest.mark.parametrize("typed", ['"MIT"', '{"name": "MIT"}', '["MIT", 3]'])
def test_an_authors_affiliations_must_be_a_list_of_institutions(editor, typed):
    """A JSON string was saved as it came and shown to readers letter by letter ("M; I; T")."""
    response = add_paper_with_author(editor, typed)
    assert response.status_code == 200
    author_form = response.context["form"].formsets["authors"].forms[0]
    assert "affiliations" in author_form.errors
    assert author_form["affiliations"].value() == typed
    assert not Paper.objects.filter(title="A paper typed by hand").exists()


def test_an_authors_affiliations_as_a_list_are_saved(editor):
    assert add_paper_with_author(editor, '["MIT", "Google"]').status_code == 302
    author = Paper.objects.get(title="A paper typed by hand").authors.get()
    assert author.affiliations == ["MIT", "Google"]


def test_an_orcid_that_is_no_orcid_is_refused(editor):
    """The reader links each ORCID to orcid.org: junk made a broken link under the name."""
    response = add_paper_with_author(editor, "[]", orcid="my orcid")
    assert response.status_code == 200
    author_form = response.context["form"].formsets["authors"].forms[0]
    assert "orcid" in author_form.errors
    assert not Paper.objects.filter(title="A paper typed by hand").exists()


FORGED = "Ada Lovelace\nER  - \nTY  - JOUR"


def test_an_author_name_on_two_lines_is_refused(editor):
    """A line break in a name forged a second record in the RIS export."""
    data = {"authors-0-given": "Ada\r\nER  - ", "authors-0-family": "Love\x07lace"}
    response = add_paper_with_author(editor, "[]", **data)
    assert response.status_code == 200
    author_form = response.context["form"].formsets["authors"].forms[0]
    assert {"given", "family"} <= set(author_form.errors)
    assert not Paper.objects.filter(title="A paper typed by hand").exists()


def test_a_title_or_affiliation_on_two_lines_is_refused(editor):
    response = add_paper_with_author(editor, '["MIT\\nER  - "]', title=FORGED)
    assert response.status_code == 200
    assert "title" in response.context["form"].errors
    author_form = response.context["form"].formsets["authors"].forms[0]
    assert "affiliations" in author_form.errors
    assert not Paper.objects.filter(title__startswith="Ada Lovelace").exists()
