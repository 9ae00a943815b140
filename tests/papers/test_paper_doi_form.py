"""Editors type or paste a paper's DOI in the admin: it is stored as the sync stores DOIs, and
a DOI another paper holds is refused on the DOI field, naming that paper, with nothing lost."""

import json

import pytest
from django.urls import reverse

from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS
from tests.support.users import member

pytestmark = pytest.mark.django_db

HELD = "10.1145/3651890.3672233"
NO_ROWS = {
    f"{formset}-{count}": "0"
    for formset in ("authors", "affiliations", "links")
    for count in ("TOTAL_FORMS", "INITIAL_FORMS")
}


@pytest.fixture
def editor(client):
    client.force_login(member(EDITORS))
    return client


@pytest.fixture
def holder():
    paper = Paper.objects.order_by("pk").first()
    paper.doi = HELD
    paper.save()
    return paper


def add_paper(editor, doi: str, title: str = "A paper typed by hand"):
    data = {"title": title, "venue": "NSDI", "year": "2025", "doi": doi, **NO_ROWS}
    return editor.post(reverse("wagtailsnippets_papers_paper:add"), data)


@pytest.mark.parametrize(
    "typed",
    [HELD, f"https://doi.org/{HELD}", f" doi:{HELD.upper()} ", f"https://dx.doi.org/{HELD}"],
)
def test_a_doi_another_paper_holds_is_refused_on_the_doi_field(editor, holder, typed):
    response = add_paper(editor, typed)
    assert response.status_code == 200
    form = response.context["form"]
    assert holder.title in " ".join(form.errors["doi"])
    assert not form.non_field_errors()
    assert form["title"].value() == "A paper typed by hand"  # what they typed is still there
    assert not Paper.objects.filter(title="A paper typed by hand").exists()


def test_a_pasted_doi_link_is_stored_as_the_doi(editor):
    response = add_paper(editor, "https://doi.org/10.1145/3651890.ABC123")
    assert response.status_code == 302
    assert Paper.objects.get(title="A paper typed by hand").doi == "10.1145/3651890.abc123"


def test_text_that_is_no_doi_is_refused_on_the_doi_field(editor):
    response = add_paper(editor, "see the ACM page")
    assert response.status_code == 200
    assert "see the ACM page" in " ".join(response.context["form"].errors["doi"])
    assert not Paper.objects.filter(title="A paper typed by hand").exists()


def test_editing_a_paper_to_another_papers_doi_is_refused(editor, holder):
    other = Paper.objects.exclude(pk=holder.pk).order_by("pk").first()
    url = reverse("wagtailsnippets_papers_paper:edit", args=[other.pk])
    form = editor.get(url).context["form"]
    data = {
        name: value
        for name, value in form.initial.items()
        if name in ("title", "venue", "year", "track", "abstract", "loaded")
    }
    data.update({key: value for key, value in NO_ROWS.items()})
    data["doi"] = HELD.upper()
    response = editor.post(url, data)
    assert response.status_code == 200
    assert holder.title in " ".join(response.context["form"].errors["doi"])
    other.refresh_from_db()
    assert other.doi == ""


def test_the_digest_choosers_new_paper_form_refuses_a_held_doi(editor, holder):
    url = reverse("wagtailsnippetchoosers_papers_paper:create")
    data = {"title": "A paper typed by hand", "venue": "NSDI", "year": "2025"}
    response = editor.post(url, {**data, "doi": f"https://doi.org/{HELD}"})
    answer = json.loads(response.content)
    assert answer["step"] == "reshow_creation_form"
    assert holder.title in answer["htmlFragment"]
    assert "papers_paper_unique_doi" not in answer["htmlFragment"]
    assert not Paper.objects.filter(title="A paper typed by hand").exists()


def test_a_doi_saved_before_in_another_spelling_is_not_taken_for_an_edit(editor):
    """A DOI stored as once typed (a doi.org link) is stored bare at the next save, and the
    editor who changed only the title has not pinned the DOI against the sync."""
    paper = Paper.objects.create(
        title="Typed once", venue="NSDI", year=2024, doi="https://doi.org/10.1145/3651890.ABC"
    )
    url = reverse("wagtailsnippets_papers_paper:edit", args=[paper.pk])
    form = editor.get(url).context["form"]
    data = {
        name: form[name].value()
        for name in ("title", "venue", "year", "track", "abstract", "loaded", "doi")
    }
    data.update(NO_ROWS)
    data["title"] = "A title fixed by hand"

    assert editor.post(url, data).status_code == 302

    paper.refresh_from_db()
    assert paper.doi == "10.1145/3651890.abc"
    assert paper.locked_fields == ["title"]
