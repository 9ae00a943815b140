"""The reader's HTML shell and routes: Wagtail's page paths, served without Wagtail's templates."""

import re

import pytest
from django.contrib.staticfiles import finders

from cms.digests.models import DigestPage

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("path", ["/", "/inside-the-server/", "/inside-the-server/fabricperf/"])
def test_page_paths_serve_the_shell(client, path):
    response = client.get(path)
    assert response.status_code == 200
    html = response.content.decode()
    assert 'type="module"' in html
    assert 'data-mode="live"' in html
    assert "max-age=300" in response["Cache-Control"]


def test_deeper_paths_are_not_found(client):
    assert client.get("/a/b/c/").status_code == 404


def test_admin_and_api_keep_their_paths(client):
    assert client.get("/admin/").status_code == 302  # to the login page
    assert client.get("/api/v2/pages/").status_code == 200


def test_api_html_url_and_page_url_lead_to_the_reader(client):
    digest = DigestPage.objects.get(slug="fabricperf", locale__language_code="en")
    assert digest.url == "/inside-the-server/fabricperf/"
    response = client.get(f"/api/v2/pages/{digest.pk}/")
    assert response.json()["meta"]["html_url"].endswith("/inside-the-server/fabricperf/")


def test_every_static_file_the_shell_names_exists(client):
    html = client.get("/").content.decode()
    assets = re.findall(r'(?:href|src)="/static/([^"]+)"', html)
    assert {"reader/reader.css", "reader/js/main.js"} <= set(assets)
    for asset in assets:
        assert finders.find(asset), asset
