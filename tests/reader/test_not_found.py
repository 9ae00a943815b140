"""Unknown addresses answer 404: the reader's page on the site's paths, JSON under /api/."""

import pytest
from wagtail.models import PageViewRestriction

from cms.digests.models import DigestPage

pytestmark = pytest.mark.django_db


def assert_reader_404(response, lang: str) -> None:
    assert response.status_code == 404
    html = response.content.decode()
    assert 'type="module"' in html and 'data-mode="live"' in html
    assert f'<html lang="{lang}"' in html


@pytest.mark.parametrize(
    ("path", "lang"),
    [
        ("/no-such/", "en"),
        ("/zh-hant/no-such/", "zh-Hant"),
        ("/inside-the-server/no-such/", "en"),
        ("/zh-hant/inside-the-server/no-such/", "zh-Hant"),
        ("/a/b/c/", "en"),
        ("/zh-hant/a/b/c/", "zh-Hant"),
        ("/django-admin/login/", "en"),
    ],
)
def test_unknown_reader_paths_are_404_with_the_reader_page(client, path, lang):
    assert_reader_404(client.get(path), lang)


@pytest.mark.parametrize(
    "path", ["/", "/zh-hant/", "/inside-the-server/fabricperf/", "/zh-hant/inside-the-server/"]
)
def test_public_pages_are_200(client, path):
    assert client.get(path).status_code == 200


def test_an_unpublished_digest_s_address_is_404(client):
    page = DigestPage.objects.get(slug="fabricperf", locale__language_code="en")
    page.unpublish()

    assert_reader_404(client.get("/inside-the-server/fabricperf/"), "en")


def test_a_private_digest_s_address_found_by_a_reader_it_admits_is_private(
    client, django_user_model
):
    """The shell is 200 for a signed-in reader the restriction admits: that answer must not
    reach a shared cache, which would tell everyone the address exists."""
    page = DigestPage.objects.get(slug="fabricperf", locale__language_code="en")
    PageViewRestriction.objects.create(page=page, restriction_type=PageViewRestriction.LOGIN)
    assert "public" in client.get("/inside-the-server/").headers["Cache-Control"]
    client.force_login(django_user_model.objects.create_user("reader", password="x"))
    admitted = client.get("/inside-the-server/fabricperf/")
    assert admitted.status_code == 200
    assert "private" in admitted["Cache-Control"] and "public" not in admitted["Cache-Control"]
    assert client.get("/zh-hant/inside-the-server/fabricperf/").status_code == 200


def test_a_private_digest_s_address_is_404(client):
    page = DigestPage.objects.get(slug="fabricperf", locale__language_code="en")
    PageViewRestriction.objects.create(page=page, restriction_type=PageViewRestriction.LOGIN)

    assert_reader_404(client.get("/inside-the-server/fabricperf/"), "en")


@pytest.mark.parametrize(
    "path",
    [
        "/api/v2/pages/abc/",
        "/api/v2/pages/999999/",
        "/api/v2/papers/abc/",
        "/api/v2/papers/999999/",
        "/api/v2/no-such-endpoint/",
        "/api/v3/",
        "/api/",
    ],
)
@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_api_404s_are_json(client, settings, path, debug):
    settings.DEBUG = debug  # with DEBUG on Django shows its technical page, not handler404
    response = client.get(path)

    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["message"]


def test_the_admin_keeps_django_s_404(client):
    response = client.get("/admin/no-such-screen/")

    assert response.status_code in (302, 404)
    assert 'data-mode="live"' not in response.content.decode()


@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
@pytest.mark.parametrize(
    ("path", "query"),
    [
        ("/api/v2/pages", "?type=digests.DigestPage&locale=zh-hant"),
        ("/api/v2/papers", ""),
        ("/api/v2/schema", "?format=json"),
        ("/api/v2", ""),
    ],
)
def test_an_api_address_without_its_slash_leads_to_it(client, settings, path, query, debug):
    """`/api/v2/pages?type=...` was a JSON 404 "not found" (the last /api/ pattern caught it
    before Django's APPEND_SLASH could redirect): it leads to the address with the slash,
    query kept, as it did before that pattern."""
    settings.DEBUG = debug
    response = client.get(path + query)
    assert response.status_code == 301
    assert response["Location"] == f"{path}/{query}"
    assert client.get(response["Location"]).status_code == 200
    assert client.head(path + query).status_code == 301


@pytest.mark.parametrize("path", ["/api/v2/a/b/c", "/api/v2/pages/1/x", "/api/v3"])
def test_an_api_address_that_names_nothing_with_a_slash_either_is_a_json_404(client, path):
    response = client.get(path)
    assert response.status_code == 404
    assert response.json() == {"message": f"not found: {path}"}
    assert client.post("/api/v2/pages").status_code == 404  # a write is never redirected
