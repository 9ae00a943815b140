"""The API gets a deny-everything Content-Security-Policy; the admin one that lets Wagtail work."""

import pytest

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, set[str]]:
    policy = response["Content-Security-Policy"]
    return {
        name: set(values)
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }


def test_api_responses_allow_nothing(client):
    policy = directives(client.get("/api/v2/pages/"))

    assert policy["default-src"] == {"'none'"}
    assert policy["frame-ancestors"] == {"'none'"}
    assert "script-src" not in policy


def test_admin_allows_its_own_scripts_and_nothing_from_elsewhere(client, admin_user):
    client.force_login(admin_user)

    response = client.get("/admin/")

    assert response.status_code == 200
    policy = directives(response)
    assert policy["default-src"] == {"'self'"}
    assert policy["script-src"] == {"'self'", "'unsafe-inline'", "'unsafe-eval'"}
    assert policy["object-src"] == {"'none'"}
    assert policy["frame-ancestors"] == {"'self'"}
    assert not any("http" in value for values in policy.values() for value in values)
