"""Editors find papers in the admin by title words or DOI."""

import pytest
from django.urls import reverse

from cms.papers.models import Paper

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", password="pw"))
    return client


def listed_titles(editor_client, query: str) -> list[str]:
    url = reverse("wagtailsnippets_papers_paper:list")
    response = editor_client.get(url, {"q": query})
    assert response.status_code == 200
    return [paper.title for paper in response.context["object_list"]]


def test_search_by_a_title_word(editor_client):
    paper = Paper.objects.order_by("pk").first()
    word = max(paper.title.split(), key=len)
    titles = listed_titles(editor_client, word)
    assert paper.title in titles
    assert all(word.casefold() in title.casefold() for title in titles)


def test_search_by_doi(editor_client):
    paper = Paper.objects.order_by("pk").first()
    paper.doi = "10.1145/3651890.3672233"
    paper.save()
    assert listed_titles(editor_client, paper.doi) == [paper.title]
