"""A paper title holding markup is shown escaped in the admin and as plain text in the API.

The sync refuses such titles (tests/sync/test_faults.py); an editor can still type one.
"""

import pytest

from cms.digests.models import DigestPage

pytestmark = pytest.mark.django_db

HOSTILE = '<script>alert("synced")</script><img src=x onerror=alert(1)>'
# How the title may appear once escaped: as HTML text, or inside Django's json_script.
ESCAPED_FORMS = ("&lt;script&gt;alert(", "\\u003Cscript\\u003Ealert(")


@pytest.fixture
def hostile_paper():
    digest = DigestPage.objects.filter(locale__language_code="en", paper__isnull=False).first()
    paper = digest.paper
    paper.title = HOSTILE
    paper.save()
    return paper, digest


@pytest.fixture
def editor(client, admin_user):
    client.force_login(admin_user)
    return client


@pytest.mark.parametrize(
    "view",
    [
        "/admin/snippets/papers/paper/",
        "/admin/snippets/papers/paper/edit/{paper}/",
        "/admin/pages/{digest}/edit/",
    ],
)
def test_admin_views_escape_it(editor, hostile_paper, view):
    paper, digest = hostile_paper

    response = editor.get(view.format(paper=paper.pk, digest=digest.pk))

    assert response.status_code == 200
    html = response.content.decode()
    assert "<script>alert(" not in html
    assert "<img src=x onerror" not in html
    assert any(form in html for form in ESCAPED_FORMS), "the title is not shown at all"


def test_api_returns_it_as_a_plain_json_string(client, hostile_paper):
    paper, _ = hostile_paper

    body = client.get(f"/api/v2/papers/{paper.pk}/").json()

    assert body["title"] == HOSTILE
