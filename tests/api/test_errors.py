"""Every error of the public API has the same body, `{"message": ...}`, whatever answers it."""

import json

import pytest
from django.test import Client, RequestFactory

from cms.api.errors import server_error
from cms.digests.models import DigestPage
from cms.papers.selectors import papers_on_public_pages

pytestmark = pytest.mark.django_db

ENDPOINTS = ("pages", "papers", "images", "documents")


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_a_write_is_a_405_with_a_message(client, endpoint):
    response = client.post(f"/api/v2/{endpoint}/", {"title": "x"})

    assert response.status_code == 405
    assert response.json() == {"message": 'Method "POST" not allowed.'}


def test_a_detail_refuses_delete_with_a_message(client):
    page = DigestPage.objects.live().public().first()

    response = client.delete(f"/api/v2/pages/{page.pk}/")

    assert response.status_code == 405
    assert set(response.json()) == {"message"}
    assert DigestPage.objects.filter(pk=page.pk).exists()


@pytest.mark.parametrize("endpoint", ENDPOINTS)
def test_an_unknown_accept_is_a_406_with_a_message(client, endpoint):
    response = client.get(f"/api/v2/{endpoint}/", HTTP_ACCEPT="application/xml")

    assert response.status_code == 406
    assert "Accept" in response.json()["message"]


@pytest.mark.parametrize("endpoint", ENDPOINTS)
@pytest.mark.parametrize("operator", ["AAA", "or"])
def test_a_search_operator_without_search_is_a_400_naming_both(client, endpoint, operator):
    """Alone, the operator was ignored: the whole listing, 200, whatever its value."""
    response = client.get(f"/api/v2/{endpoint}/", {"search_operator": operator})

    assert response.status_code == 400
    assert response.json() == {"message": "search_operator needs search"}
    searched = client.get(f"/api/v2/{endpoint}/", {"search_operator": "or", "search": "a"})
    assert searched.status_code == 200


def cited_paper_id() -> int:
    return papers_on_public_pages(RequestFactory().get("/")).values_list("pk", flat=True)[0]


PLAIN_VIEWS = ("/api/v2/", "/api/v2/schema/", "/api/v2/papers/{paper}/cite/", "/api/v2/nope/")


@pytest.mark.parametrize("path", PLAIN_VIEWS)
@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE", "QUERY", "TRACE"])
def test_a_plain_view_refuses_a_write_with_a_json_405(path, method):
    """As a client that sends no CSRF cookie: Django's CSRF check used to answer first, an HTML
    403 "CSRF cookie not set" to a method the view never takes."""
    client = Client(enforce_csrf_checks=True)

    response = client.generic(method, path.format(paper=cited_paper_id()))

    if path == "/api/v2/nope/":
        assert response.status_code == 404  # no resource there, whatever the method
    else:
        assert response.status_code == 405
        assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD", "OPTIONS"}
    assert response["Content-Type"] == "application/json"
    assert set(response.json()) == {"message"}


@pytest.mark.parametrize("path", PLAIN_VIEWS[:3])
def test_a_plain_view_answers_options_with_its_methods(path):
    response = Client().options(path.format(paper=cited_paper_id()))

    assert response.status_code == 200
    assert set(response["Allow"].replace(" ", "").split(",")) == {"GET", "HEAD", "OPTIONS"}


def test_a_server_error_under_the_api_is_json(rf):
    response = server_error(rf.get("/api/v2/pages/"))

    assert response.status_code == 500
    assert set(json.loads(response.content)) == {"message"}
