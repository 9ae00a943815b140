import uuid

import pytest
import redis
from django.core.cache import cache
from wagtail.models import Page

from cms.papers.models import Paper

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counters():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def low_rate(settings):
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "3/minute"},
    }


def api_urls() -> list[str]:
    page = Page.objects.live().public().filter(depth__gt=1).first()
    paper = Paper.objects.first()
    return [
        "/api/v2/pages/?locale=zh-hant",
        f"/api/v2/pages/{page.pk}/",
        "/api/v2/papers/",
        f"/api/v2/papers/{paper.pk}/",
    ]


@pytest.mark.usefixtures("low_rate")
@pytest.mark.parametrize("url_index", range(4))
def test_anonymous_client_over_the_limit_gets_429(client, url_index):
    """Repeating one URL counts too, though the API response cache answers the repeats."""
    url = api_urls()[url_index]

    statuses = [client.get(url).status_code for _ in range(4)]

    assert statuses == [200, 200, 200, 429]
    response = client.get(url)
    assert int(response["Retry-After"]) > 0
    body = response.json()
    assert set(body) == {"message"}  # the API's error body, as every other error's
    assert "throttled" in body["message"].lower()
    assert response["Retry-After"] in body["message"]  # "... available in N seconds."
    assert response["Cache-Control"] == "no-store"


@pytest.mark.usefixtures("low_rate")
def test_each_client_address_has_its_own_budget(client):
    for _ in range(3):
        client.get("/api/v2/pages/", REMOTE_ADDR="198.51.100.1")

    assert client.get("/api/v2/pages/", REMOTE_ADDR="198.51.100.1").status_code == 429
    assert client.get("/api/v2/pages/", REMOTE_ADDR="198.51.100.2").status_code == 200


@pytest.mark.usefixtures("low_rate")
def test_forged_forwarded_for_does_not_reset_the_budget(client):
    """Without a trusted proxy (NUM_PROXIES=0) X-Forwarded-For is ignored."""
    for n in range(3):
        client.get("/api/v2/pages/", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}")

    response = client.get("/api/v2/pages/", HTTP_X_FORWARDED_FOR="203.0.113.99")

    assert response.status_code == 429


@pytest.mark.usefixtures("low_rate")
def test_behind_a_trusted_proxy_a_client_rotating_forwarded_for_directly_is_throttled(
    client, settings
):
    """With one trusted proxy configured, a client that reaches the web process itself (its
    address is not the proxy's) is counted by its own address, whatever X-Forwarded-For says."""
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_ADDRESSES = ["10.0.0.2"]
    statuses = [
        client.get(
            "/api/v2/papers/", REMOTE_ADDR="198.51.100.9", HTTP_X_FORWARDED_FOR=f"203.0.113.{n}"
        ).status_code
        for n in range(6)
    ]

    assert statuses == [200, 200, 200, 429, 429, 429]


@pytest.mark.usefixtures("low_rate")
def test_behind_the_trusted_proxy_each_client_has_its_own_budget(client, settings):
    """Through the proxy, the client is the address the proxy appended, not what the client
    wrote to the left of it."""
    settings.TRUSTED_PROXY_COUNT = 1
    settings.TRUSTED_PROXY_ADDRESSES = ["10.0.0.0/24"]

    def through_proxy(forwarded: str) -> int:
        return client.get(
            "/api/v2/papers/", REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=forwarded
        ).status_code

    first = [through_proxy(f"192.0.2.{n}, 198.51.100.1") for n in range(4)]
    other = through_proxy("198.51.100.1, 198.51.100.2")

    assert first == [200, 200, 200, 429]
    assert other == 200


@pytest.mark.usefixtures("low_rate")
def test_a_claimed_credential_buys_no_bigger_budget(client):
    for _ in range(3):
        client.get("/api/v2/pages/", HTTP_AUTHORIZATION="Bearer made-up")

    response = client.get("/api/v2/pages/", HTTP_AUTHORIZATION="Bearer another")

    assert response.status_code == 429


def test_no_rate_means_no_limit(client):
    statuses = {client.get("/api/v2/pages/").status_code for _ in range(5)}

    assert statuses == {200}


@pytest.mark.usefixtures("low_rate")
def test_the_counter_lives_in_redis_when_configured(client, settings, redis_url):
    """Every web process on every machine shares one budget per client."""
    prefix = f"throttle-test-{uuid.uuid4().hex}"
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": prefix,
        }
    }
    store = redis.Redis.from_url(redis_url)
    try:
        statuses = [client.get("/api/v2/pages/").status_code for _ in range(4)]

        assert statuses == [200, 200, 200, 429]
        keys = store.keys(f"{prefix}:*throttle_anon_127.0.0.1")
        assert len(keys) == 1
    finally:
        for key in store.scan_iter(f"{prefix}:*"):
            store.delete(key)
        store.close()
