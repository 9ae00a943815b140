"""Editors find a paper in the admin by what they have at hand: a DOI as they copied it (bare,
a doi.org link, doi:...), a title fragment or an author's name; in the Papers listing and in a
digest's paper chooser alike, as the papers API's search finds it."""

import pytest
from django.urls import reverse

from cms.papers.models import Paper, PaperAuthor
from cms.translation.policy.roles import EDITORS
from tests.support.users import member

pytestmark = pytest.mark.django_db

DOI = "10.1145/3651890.3672249"
QUERIES = [
    DOI,
    DOI.upper(),
    f"https://doi.org/{DOI}",
    f"https://dx.doi.org/{DOI.upper()}",
    f"doi:{DOI}",
    "Ziyi Kwan",
    "kwan",
]


@pytest.fixture
def paper():
    paper = Paper.objects.order_by("pk").first()
    paper.doi = DOI
    paper.save()
    PaperAuthor.objects.create(paper=paper, name="Ziyi Kwan", sort_order=0)
    return paper


@pytest.fixture
def editor(client):
    client.force_login(member(EDITORS))
    return client


@pytest.mark.parametrize("query", QUERIES)
def test_the_papers_listing_finds_the_paper(editor, paper, query):
    response = editor.get(reverse("wagtailsnippets_papers_paper:list"), {"q": query})

    assert [found.pk for found in response.context["object_list"]] == [paper.pk]


@pytest.mark.parametrize("query", QUERIES)
def test_the_paper_chooser_finds_the_paper(editor, paper, query):
    response = editor.get(
        reverse("wagtailsnippetchoosers_papers_paper:choose_results"), {"q": query}
    )

    assert [found.pk for found in response.context["results"]] == [paper.pk]


def test_a_query_matching_nothing_finds_nothing(editor, paper):
    query = {"q": "10.9999/nothing-here"}
    listing = editor.get(reverse("wagtailsnippets_papers_paper:list"), query)
    chooser = editor.get(reverse("wagtailsnippetchoosers_papers_paper:choose_results"), query)

    assert list(listing.context["object_list"]) == [] and list(chooser.context["results"]) == []
