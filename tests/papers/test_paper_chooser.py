"""Editors create a paper from a digest's paper chooser, without leaving the page they edit."""

import pytest
from django.urls import reverse

from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS, TRANSLATORS
from tests.support.users import member

pytestmark = pytest.mark.django_db

CHOOSE_URL = reverse("wagtailsnippetchoosers_papers_paper:choose")
CREATE_URL = reverse("wagtailsnippetchoosers_papers_paper:create")


def test_the_chooser_offers_a_new_paper_form_to_editors(client):
    client.force_login(member(EDITORS))

    html = client.get(CHOOSE_URL).json()["html"]

    assert "New paper" in html and "Create paper" in html
    assert 'name="year"' in html and 'name="venue"' in html


def test_an_editor_creates_a_paper_and_it_is_chosen(client):
    client.force_login(member(EDITORS))

    response = client.post(
        CREATE_URL, {"title": "QueueBench: Measuring Queues", "venue": "NSDI", "year": 2026}
    )

    paper = Paper.objects.get(title="QueueBench: Measuring Queues")
    assert (paper.venue, paper.year, paper.track) == ("NSDI", 2026, "")
    data = response.json()
    assert data["step"] == "chosen"
    assert str(data["result"]["id"]) == str(paper.pk)


def test_bad_input_reshows_the_form_with_the_error_and_creates_nothing(client):
    client.force_login(member(EDITORS))
    count = Paper.objects.count()

    response = client.post(CREATE_URL, {"title": "No year", "venue": "NSDI", "year": ""})

    data = response.json()
    assert data["step"] == "reshow_creation_form"
    assert "This field is required" in data["htmlFragment"]
    assert Paper.objects.count() == count


def test_translators_may_not_create_papers(client):
    client.force_login(member(TRANSLATORS))
    count = Paper.objects.count()

    response = client.post(CREATE_URL, {"title": "Sneaky", "venue": "NSDI", "year": 2026})

    assert response.status_code in (302, 403)
    assert Paper.objects.count() == count
