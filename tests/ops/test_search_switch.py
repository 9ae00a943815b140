import pytest
from wagtail.models import Page

from cms.digests.models import DigestPage

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("endpoint", ["pages", "images", "documents"])
def test_search_can_be_switched_off(client, settings, endpoint):
    settings.WAGTAILAPI_SEARCH_ENABLED = False

    response = client.get(f"/api/v2/{endpoint}/", {"search": "network"})

    assert response.status_code == 400
    assert response.json() == {"message": "search is disabled"}


def test_search_works_when_enabled(client, settings):
    settings.WAGTAILAPI_SEARCH_ENABLED = True

    response = client.get("/api/v2/pages/", {"search": "network", "limit": 100, "locale": "en"})

    assert response.status_code == 200
    found = {item["id"] for item in response.json()["items"]}
    containing = {
        page.pk
        for page in DigestPage.objects.filter(locale__language_code="en")
        if "network" in f"{page.title} {page.summary}".lower()
    }
    assert containing and containing <= found
    assert found < set(Page.objects.filter(locale__language_code="en").values_list("pk", flat=True))
