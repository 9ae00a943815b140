import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("endpoint", ["pages", "images", "documents"])
def test_search_can_be_switched_off(client, settings, endpoint):
    settings.WAGTAILAPI_SEARCH_ENABLED = False

    response = client.get(f"/api/v2/{endpoint}/", {"search": "network"})

    assert response.status_code == 400
    assert response.json() == {"message": "search is disabled"}


def test_search_works_when_enabled(client, settings):
    settings.WAGTAILAPI_SEARCH_ENABLED = True

    response = client.get("/api/v2/pages/", {"search": "network"})

    assert response.status_code == 200
