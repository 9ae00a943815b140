"""HEAD revalidates like GET: the same ETag, and a 304 when it still matches."""

import pytest

from cms.digests.models import DigestPage

pytestmark = pytest.mark.django_db

PATHS = [
    "/api/v2/pages/?type=digests.DigestPage&fields=title&locale=zh-hant",
    "/api/v2/papers/",
    "/api/v2/schema/",
    "/feed.atom",
    "/zh-hant/feed.atom",
    "/sitemap.xml",
]


@pytest.fixture(params=["uncached_api", "cached_api"])
def api_cache(request):
    """Both with the API's response cache and without it."""
    request.getfixturevalue(request.param)


@pytest.mark.parametrize("path", PATHS)
def test_head_gets_the_etag_of_get_and_a_304_while_it_matches(client, api_cache, path):
    head = client.head(path)
    assert head.status_code == 200
    get = client.get(path)
    assert head["ETag"] == get["ETag"]

    again = client.head(path, HTTP_IF_NONE_MATCH=get["ETag"])
    assert again.status_code == 304
    assert again.content == b""
    assert again["ETag"] == get["ETag"]
    assert again["Cache-Control"] == get["Cache-Control"]
    assert client.head(path, HTTP_IF_NONE_MATCH='"stale"').status_code == 200


def test_head_after_a_change_is_a_200_with_the_new_etag(
    client, cached_api, django_capture_on_commit_callbacks
):
    page = DigestPage.objects.live().filter(locale__language_code="en").first()
    url = f"/api/v2/pages/{page.pk}/"
    etag = client.head(url)["ETag"]
    page.summary = "A new summary."
    with django_capture_on_commit_callbacks(execute=True):
        page.save_revision().publish()
    response = client.head(url, HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag
    assert response["ETag"] == client.get(url)["ETag"]
    assert client.get(url).json()["summary"] == "A new summary."
