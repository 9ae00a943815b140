"""Same-origin, no-inline Content-Security-Policy everywhere; the admin gets what Wagtail needs."""

import pytest

from cms.digests.models import DigestPage

pytestmark = pytest.mark.django_db


def directives(response) -> dict[str, set[str]]:
    policy = response["Content-Security-Policy"]
    return {
        name: set(values)
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }


@pytest.mark.parametrize("path", ["/api/v2/pages/", "/"])
def test_outside_the_admin_only_same_origin_code_runs(client, path):
    policy = directives(client.get(path))

    assert policy["default-src"] == {"'self'"}
    assert policy["object-src"] == {"'none'"}
    assert policy["base-uri"] == {"'none'"}
    assert "script-src" not in policy  # falls back to default-src: no inline, no eval
    assert not any("unsafe" in value for values in policy.values() for value in values)


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


def test_admin_previews_get_the_admin_policy_not_the_public_one():
    """Wagtail renders previews with a dummy request for the page's public URL; the admin's
    preview panel serves the result, and headless preview's frame page has inline styles."""
    digest = DigestPage.objects.get(locale__language_code="en", short_name="ByteScale")

    response = digest.make_preview_request()

    assert response.status_code == 200
    policy = directives(response)
    assert policy["style-src"] == {"'self'", "'unsafe-inline'"}
    assert policy["frame-src"] == {"'self'"}  # it frames the reader's /preview/ route
