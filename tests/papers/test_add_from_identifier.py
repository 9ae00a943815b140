""" "Add from identifier" in the admin: the Papers listing's page and the digest's paper chooser,
against the local stand-in serving recorded answers (tests/sync/conftest.py)."""

import time

import pytest
from django.urls import reverse

from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS, TRANSLATORS
from tests.support.users import member

pytestmark = pytest.mark.django_db

HPN_DOI = "10.1145/3651890.3672265"
PAGE_URL = reverse("sync_lookup")
CHOOSER_URL = reverse("sync_lookup_chooser")


@pytest.fixture
def editor(client):
    client.force_login(member(EDITORS))
    return client


def test_the_papers_listing_offers_add_from_identifier(editor):
    html = editor.get(reverse("wagtailsnippets_papers_paper:list")).content.decode()
    assert "Add from identifier" in html and PAGE_URL in html


def test_the_chooser_offers_the_identifier_form_above_the_new_paper_form(editor):
    html = editor.get(reverse("wagtailsnippetchoosers_papers_paper:choose")).json()["html"]
    assert CHOOSER_URL in html and 'name="identifier"' in html and 'name="year"' in html


def test_the_merged_record_is_shown_with_sources_then_saved(editor, lookup_upstream):
    html = editor.post(PAGE_URL, {"identifier": f"https://doi.org/{HPN_DOI}"}).content.decode()
    assert not Paper.objects.filter(doi=HPN_DOI).exists()  # nothing saved before "Add paper"
    assert "Kun Qian, Yongqing Xi, Jiamin Cao</td><td>DBLP</td>" in html
    assert f"{HPN_DOI}</td><td>Crossref</td>" in html
    token = html.split('name="token" value="', 1)[1].split('"', 1)[0]
    asked = len(lookup_upstream.log)

    response = editor.post(PAGE_URL, {"identifier": HPN_DOI, "token": token})

    paper = Paper.objects.get(doi=HPN_DOI)
    assert response.url == reverse("wagtailsnippets_papers_paper:edit", args=[paper.pk])
    assert paper.provenance["title"]["source"] == "dblp"
    assert len(lookup_upstream.log) == asked  # saving asked no source again


def test_a_paper_on_the_site_takes_the_editor_to_it(editor, lookup_upstream):
    seeded = Paper.objects.get(title__startswith="ByteScale")
    response = editor.post(PAGE_URL, {"identifier": "10.1145/3718958.3750471"})
    assert response.url == reverse("wagtailsnippets_papers_paper:edit", args=[seeded.pk])


def test_bad_input_names_what_was_not_recognised_and_writes_nothing(editor, lookup_upstream):
    count = Paper.objects.count()
    html = editor.post(PAGE_URL, {"identifier": "ftp://example.org/x"}).content.decode()
    assert "ftp://example.org/x" in html and "is not a link this site can look up" in html
    assert Paper.objects.count() == count
    assert lookup_upstream.log == []


def test_a_title_shows_candidates_to_pick(editor, lookup_upstream):
    html = editor.post(
        PAGE_URL, {"identifier": "Data Center Network for Large Language Model Training"}
    ).content.decode()
    assert "data-lookup-candidates" in html
    assert "IEEE Micro" in html and "Kun Qian, Yongqing Xi, Jiamin Cao" in html
    assert f'name="identifier" value="{HPN_DOI}"' in html


def test_in_the_chooser_the_saved_paper_is_chosen(editor, lookup_upstream):
    data = editor.post(CHOOSER_URL, {"identifier": HPN_DOI}).json()
    assert data["step"] == "reshow_creation_form"
    assert 'id="tab-create"' in data["htmlFragment"]
    token = data["htmlFragment"].split('name="token" value="', 1)[1].split('"', 1)[0]

    data = editor.post(CHOOSER_URL, {"identifier": HPN_DOI, "token": token}, follow=True).json()

    paper = Paper.objects.get(doi=HPN_DOI)
    assert data["step"] == "chosen"
    assert str(data["result"]["id"]) == str(paper.pk)


def test_in_the_chooser_a_failed_lookup_keeps_the_paper_form_to_fill_by_hand(
    editor, lookup_upstream
):
    data = editor.post(CHOOSER_URL, {"identifier": "10.1145/0000000.9999999"}).json()
    panel = data["htmlFragment"]
    assert data["step"] == "reshow_creation_form" and "No source knows" in panel
    assert panel.count('id="tab-create"') == 1
    assert 'name="title"' in panel and 'name="year"' in panel  # the paper form, below
    create_url = reverse("wagtailsnippetchoosers_papers_paper:create")
    assert f'action="{create_url}"' in panel and "Create paper" in panel


def test_in_the_chooser_a_lookup_keeps_what_was_typed_into_the_paper_form(editor, lookup_upstream):
    typed = {"paper-title": "Typed <by> hand", "paper-year": "2025", "paper-venue": "NSDI"}

    data = editor.post(CHOOSER_URL, {"identifier": "10.1145/0000000.9999999", **typed}).json()

    panel = data["htmlFragment"]
    assert 'name="title" value="Typed &lt;by&gt; hand"' in panel
    assert 'name="year" value="2025"' in panel
    assert not Paper.objects.filter(title__startswith="Typed").exists()


@pytest.mark.parametrize("url", [PAGE_URL, CHOOSER_URL])
def test_translators_may_not_add_papers(client, lookup_upstream, url):
    client.force_login(member(TRANSLATORS))
    count = Paper.objects.count()
    response = client.post(url, {"identifier": HPN_DOI})
    assert response.status_code in (302, 403)
    assert Paper.objects.count() == count
    assert lookup_upstream.log == []  # not even looked up
    html = client.get(reverse("wagtailsnippets_papers_paper:list")).content.decode()
    assert "Add from identifier" not in html


def test_a_source_answering_in_another_shape_is_named_to_the_editor(editor, lookup_upstream):
    from tests.sync.test_lookup import works_as_one_object

    lookup_upstream.transform = works_as_one_object
    title = "Alibaba HPN: A Data Center Network for Large Language Model Training"
    html = editor.post(PAGE_URL, {"identifier": f"{title} SIGCOMM 2024"}).content.decode()
    warning = html.split("data-lookup-unanswered", 1)[1].split("</div>", 1)[0]
    assert "Some sources did not answer" in warning
    assert "Crossref: unexpected response shape" in warning
    assert "OpenAlex: unexpected response shape" in warning
    assert "data-lookup-candidates" in html and title in html  # what the others gave


@pytest.mark.parametrize(
    "text",
    [
        "Congestion control in" + " , (" * 20_000,  # a run of separators a year may follow
        "10.1145/" + "9" * 100_000,  # a "DOI" no registry would issue
    ],
    ids=["separators", "doi"],
)
def test_input_too_long_for_any_identifier_is_refused_at_once(editor, lookup_upstream, text):
    count = Paper.objects.count()
    started = time.monotonic()
    html = editor.post(PAGE_URL, {"identifier": text}).content.decode()
    assert time.monotonic() - started < 3  # the web worker is not held reading it
    assert "too long" in html and text not in html  # said so, not echoed back whole
    assert lookup_upstream.log == []  # no source is sent it
    assert Paper.objects.count() == count
