"""Every error of the public API has the same body, `{"message": ...}`, whatever answers it."""

import pytest

from cms.digests.models import DigestPage

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
