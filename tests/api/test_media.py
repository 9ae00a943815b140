"""The images and documents endpoints: `search` matches titles and a bad one is a 400, never the
search backend's 500 (a quote or a blank search on SQLite's full-text index)."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile
from wagtail.documents.models import Document

pytestmark = pytest.mark.django_db

MEDIA = ["/api/v2/images/", "/api/v2/documents/"]


def titles(client, **params) -> list[str]:
    response = client.get("/api/v2/documents/", params)
    assert response.status_code == 200, response.content
    return sorted(item["title"] for item in response.json()["items"])


def test_search_finds_documents_by_every_term_or_any(client, conforms):
    for title in ("Congestion control slides", "Congestion data", "Scheduler slides"):
        Document.objects.create(title=title, file=ContentFile(b"x", name="x.txt"))
    assert titles(client, search="congestion SLIDES") == ["Congestion control slides"]
    assert titles(client, search="data slides", search_operator="or") == [
        "Congestion control slides",
        "Congestion data",
        "Scheduler slides",
    ]
    assert titles(client, search='"slides') == []  # a quote is text, not syntax
    assert titles(client, search=" ") == []
    conforms("/api/v2/documents/", search="slides", search_operator="or")
    conforms("/api/v2/images/", search="slides")


@pytest.mark.parametrize("path", MEDIA)
@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"search": "a", "search_operator": "xor"}, "search_operator"),
        ({"search": "a", "search_operator": ""}, "search_operator"),
        ({"search": "x" * 201}, "search"),
    ],
)
def test_a_bad_search_is_a_400_naming_it(client, path, params, named):
    response = client.get(path, params)
    assert response.status_code == 400
    assert named in response.json()["message"]


@pytest.mark.parametrize("path", MEDIA)
@pytest.mark.parametrize("search", ['"', 'a"b', "'\"", " ", "\n\r", "AND", "*"])
def test_no_search_text_is_a_server_error(client, path, search):
    assert client.get(path, {"search": search}).status_code == 200


@pytest.mark.parametrize("path", MEDIA)
def test_a_bad_field_filter_is_a_400_in_the_api_s_words(client, path):
    """As the pages' and papers' filters say it, not Python's ValueError ("invalid literal
    for int() with base 10")."""
    response = client.get(path, {"id": "1", "title": "x", "order": "id"})
    assert response.status_code == 200
    field = "height" if "images" in path else "id"
    response = client.get(path, {field: "1.5"})
    assert response.status_code == 400
    assert response.json() == {"message": f"{field} must be a non-negative integer"}


def test_documents_are_still_filtered_by_tags(client):
    tagged = Document.objects.create(title="Tagged", file=ContentFile(b"x", name="t.txt"))
    tagged.tags.add("slides", "sigcomm")
    Document.objects.create(title="Other", file=ContentFile(b"x", name="o.txt"))
    assert titles(client, tags="slides") == ["Tagged"]
    assert titles(client, tags="slides,sigcomm") == ["Tagged"]
    assert titles(client, tags="slides,nope") == []
