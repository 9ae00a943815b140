"""Numbers an editor types that no paper or digest can have are refused on their own field,
with the range, and the form comes back with everything typed (nothing saved)."""

import pytest
from django.urls import reverse
from django.utils import timezone

from cms.digests.models import DigestPage
from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS
from tests.support.admin_forms import digest_form, paper_form
from tests.support.users import member

pytestmark = pytest.mark.django_db

NEXT_YEAR = timezone.now().year + 1


@pytest.fixture
def editor(client):
    client.force_login(member(EDITORS))
    return client


@pytest.mark.parametrize("year", [0, 1949, NEXT_YEAR + 1, 32767])
def test_a_paper_s_impossible_year_is_refused_on_the_year(editor, year):
    paper = Paper.objects.order_by("pk").first()
    before = paper.year
    url = reverse("wagtailsnippets_papers_paper:edit", args=[paper.pk])

    response = editor.post(url, paper_form(paper, title="Typed title", year=year))

    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["year"], form.errors
    assert f"from 1950 to {NEXT_YEAR}" in form.errors["year"][0]
    assert form["year"].value() == str(year) and form["title"].value() == "Typed title"
    assert Paper.objects.get(pk=paper.pk).year == before


@pytest.mark.parametrize("year", [1950, NEXT_YEAR])
def test_the_range_s_ends_are_years(editor, year):
    paper = Paper.objects.order_by("pk").first()
    url = reverse("wagtailsnippets_papers_paper:edit", args=[paper.pk])

    assert editor.post(url, paper_form(paper, year=year)).status_code == 302
    assert Paper.objects.get(pk=paper.pk).year == year


def test_a_new_paper_from_the_chooser_with_year_zero_is_refused(editor):
    count = Paper.objects.count()

    response = editor.post(
        reverse("wagtailsnippetchoosers_papers_paper:create"),
        {"title": "Typed title", "venue": "NSDI", "year": "0"},
    )

    data = response.json()
    assert data["step"] == "reshow_creation_form"
    assert f"from 1950 to {NEXT_YEAR}" in data["htmlFragment"]
    assert "Typed title" in data["htmlFragment"]
    assert Paper.objects.count() == count


@pytest.mark.parametrize("minutes", [0, 601])
def test_a_digest_s_impossible_reading_time_is_refused_on_the_field(editor, minutes):
    digest = DigestPage.objects.filter(locale__language_code="en").first()
    revisions = digest.revisions.count()
    url = reverse("wagtailadmin_pages:edit", args=[digest.pk])

    response = editor.post(
        url,
        digest_form(
            digest, summary="Typed summary", reading_minutes=minutes, **{"action-publish": "1"}
        ),
    )

    assert response.status_code == 200
    form = response.context["form"]
    assert list(form.errors) == ["reading_minutes"], form.errors
    assert "from 1 to 600 minutes" in form.errors["reading_minutes"][0]
    assert form["summary"].value() == "Typed summary"
    assert form["reading_minutes"].value() == str(minutes)
    assert digest.revisions.count() == revisions
    assert DigestPage.objects.get(pk=digest.pk).reading_minutes == digest.reading_minutes
