"""Every unknown query parameter is a 400 naming it, in every view under /api/."""

import pytest

from cms.digests.models import DigestPage
from cms.papers.models import Paper

pytestmark = pytest.mark.django_db


def urls() -> list[str]:
    page = DigestPage.objects.live().public().first()
    paper = Paper.objects.filter(digests__live=True).first()
    return [
        "/api/v2/pages/",
        f"/api/v2/pages/{page.pk}/",
        f"/api/v2/pages/find/?id={page.pk}",
        "/api/v2/papers/",
        f"/api/v2/papers/{paper.pk}/",
        f"/api/v2/papers/find/?id={paper.pk}",
        "/api/v2/images/",
        "/api/v2/documents/",
        f"/api/v2/papers/{paper.pk}/cite/",
        "/api/v2/schema/",
        "/api/v2/",
        "/api/v2/page_preview/?content_type=digests.digestpage&token=x",
    ]


@pytest.mark.parametrize("index", range(12))
def test_an_unknown_parameter_is_a_400_naming_it(client, index):
    url = urls()[index]
    separator = "&" if "?" in url else "?"

    response = client.get(f"{url}{separator}colour=blue&b=1")

    assert response.status_code == 400
    message = "query parameter is not an operation or a recognised field: b, colour"
    assert response.json() == {"message": message}


@pytest.mark.parametrize("index", range(11))
def test_the_same_urls_answer_without_it(client, index):
    assert client.get(urls()[index]).status_code in (200, 302)


def test_a_detail_view_accepts_fields_and_papers_accept_locale(client):
    page = DigestPage.objects.live().public().first()
    paper = page.paper

    assert client.get(f"/api/v2/pages/{page.pk}/", {"fields": "title"}).status_code == 200
    assert client.get(f"/api/v2/papers/{paper.pk}/", {"locale": "en"}).status_code == 200


def test_a_detail_checks_its_type_as_the_listing_does(client):
    page = DigestPage.objects.live().public().first()
    url = f"/api/v2/pages/{page.pk}/"

    assert client.get(url, {"type": "digests.DigestPage"}).status_code == 200
    assert client.get(url, {"type": "digests.TopicPage,digests.DigestPage"}).status_code == 200
    assert client.get(url, {"type": "digests.TopicPage"}).status_code == 404
    for bad in ("x", "auth.User", "."):
        response = client.get(url, {"type": bad})
        assert response.status_code == 400 and "type" in response.json()["message"], bad


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("/api/v2/pages/find/", "find/ needs one of: html_path, id"),
        ("/api/v2/pages/find/?html_path=", "find/ needs one of: html_path, id"),
        ("/api/v2/papers/find/", "find/ needs one of: id"),
        (
            "/api/v2/papers/find/?html_path=/",
            "find/ needs one of: id",
        ),
    ],
)
def test_find_without_what_finds_is_a_400_naming_it(client, url, message):
    response = client.get(url)

    assert response.status_code == 400
    assert response.json() == {"message": message}


def test_papers_find_does_not_take_an_address(client):
    paper = Paper.objects.filter(digests__live=True).first()

    response = client.get("/api/v2/papers/find/", {"id": paper.pk, "html_path": "/"})

    assert response.status_code == 400
    assert "html_path" in response.json()["message"]
