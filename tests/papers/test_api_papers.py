"""The papers endpoint: shared metadata, filters, constant query counts, clear 400s."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cms.papers.models import Paper, PaperAuthor
from cms.papers.serializers import paper_as_dict
from tests.support.paper_examples import expected_paper, fill_in_odin

pytestmark = pytest.mark.django_db

PAPERS_URL = "/api/v2/papers/"


def get_json(client, path=PAPERS_URL, **params):
    response = client.get(path, params)
    assert response.status_code == 200, response.content
    return response.json()


def test_listing_carries_default_fields_and_all_on_request(client):
    odin = fill_in_odin()
    body = get_json(client, limit=100)
    assert body["meta"]["total_count"] == Paper.objects.count() == 53
    assert set(body["items"][0]) == {"id", "meta", "title", "venue", "year", "doi", "retracted"}
    full = {item["id"]: item for item in get_json(client, fields="*", limit=100)["items"]}
    item = full[odin.paper_id]
    assert item.pop("meta")["type"] == "papers.Paper"
    assert item == expected_paper(odin.paper_id)
    # Every other paper carries the same fields as the digests' nested paper.
    for paper in Paper.objects.exclude(pk=odin.paper_id):
        expected = paper_as_dict(paper)
        assert {key: full[paper.pk][key] for key in expected} == expected


def test_detail_shows_authors_in_order(client):
    paper = Paper.objects.get(title__startswith="Odin")
    PaperAuthor.objects.create(paper=paper, name="B Second", sort_order=2)
    PaperAuthor.objects.create(paper=paper, name="A First", given="A", sort_order=1)
    detail = get_json(client, f"{PAPERS_URL}{paper.pk}/")
    assert [author["name"] for author in detail["authors"]] == ["A First", "B Second"]
    assert detail["venue"] == {"acronym": paper.venue, "name": str(paper.venue_name)}
    assert detail["meta"]["type"] == "papers.Paper"


def test_filters_and_order(client):
    items = get_json(client, venue="NSDI", limit=100, order="-year,title")["items"]
    assert items and {item["venue"]["acronym"] for item in items} == {"NSDI"}
    assert len(items) == Paper.objects.filter(venue="NSDI").count()
    years = [item["year"] for item in items]
    assert years == sorted(years, reverse=True)


def test_find_redirects_to_the_detail(client):
    paper = Paper.objects.first()
    response = client.get(f"{PAPERS_URL}find/", {"id": paper.pk})
    assert response.status_code == 302
    assert f"/api/v2/papers/{paper.pk}/" in response["Location"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"year": "abc"}, "year must be a non-negative integer"),
        ({"limit": "101"}, "limit cannot be higher than 100"),
        ({"offset": "-3"}, "offset must be a non-negative integer"),
        ({"fields": "nope"}, "unknown fields: nope"),
        ({"order": "nope"}, "cannot order by 'nope'"),
        ({"order": "year,-authors"}, "cannot order by '-authors' (it holds many values)"),
        ({"order": "links"}, "cannot order by 'links' (it holds many values)"),
        ({"abstract": "\x00"}, "null characters are not allowed"),
        ({"locked_fields": "x"}, "not an operation or a recognised field"),
    ],
)
def test_bad_parameters_are_400s(client, params, message):
    response = client.get(PAPERS_URL, params)
    assert response.status_code == 400
    assert message in response.json()["message"]


def test_find_with_a_bad_id_is_a_400(client):
    assert client.get(f"{PAPERS_URL}find/", {"id": "abc"}).status_code == 400


def test_list_queries_do_not_grow_with_limit(client):
    counts = []
    for limit in (10, 53):
        client.get(PAPERS_URL, {"fields": "*", "limit": limit})
        with CaptureQueriesContext(connection) as queries:
            get_json(client, fields="*", limit=limit)
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 4  # count, papers, their authors/affiliations/links, notices
