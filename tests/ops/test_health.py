import pytest
from django.db.utils import ConnectionHandler

from cms.ops import health

pytestmark = pytest.mark.django_db


def test_healthz_answers_without_touching_dependencies(client, settings, closed_port):
    settings.REDIS_URL = f"redis://127.0.0.1:{closed_port}/0"

    response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert response["Cache-Control"] == "no-store"


def test_readyz_reports_database_and_redis(client, settings, redis_url):
    settings.REDIS_URL = redis_url

    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "redis": "ok"}}


def test_readyz_skips_redis_when_not_configured(client, settings):
    settings.REDIS_URL = ""

    response = client.get("/readyz")

    assert response.json()["checks"] == {"database": "ok"}


def test_readyz_fails_when_redis_is_down(client, settings, closed_port):
    settings.REDIS_URL = f"redis://127.0.0.1:{closed_port}/0"

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json() == {
        "status": "unavailable",
        "checks": {"database": "ok", "redis": "unavailable"},
    }


def test_readyz_fails_when_the_database_is_down(client, settings, monkeypatch, closed_port):
    settings.REDIS_URL = ""
    unreachable = ConnectionHandler(
        {
            "default": {
                "ENGINE": "django.db.backends.postgresql",
                "HOST": "127.0.0.1",
                "PORT": closed_port,
                "NAME": "cms",
                "USER": "cms",
                "OPTIONS": {"connect_timeout": 2},
            }
        }
    )
    monkeypatch.setattr(health, "connections", unreachable)

    response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json() == {"status": "unavailable", "checks": {"database": "unavailable"}}


def test_probes_answer_any_host_over_plain_http(client, settings):
    """Orchestrators probe the container's address over HTTP: no 400 for the host, no redirect."""
    settings.ALLOWED_HOSTS = ["cms.example.org"]
    settings.SECURE_SSL_REDIRECT = True
    settings.REDIS_URL = ""

    for path in ("/healthz", "/readyz"):
        response = client.get(path, HTTP_HOST="10.1.2.3:8000")
        assert response.status_code == 200, path

    assert client.get("/api/v2/pages/", HTTP_HOST="10.1.2.3:8000").status_code == 400
