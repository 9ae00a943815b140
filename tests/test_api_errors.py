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


# Wagtail's own messages (plain English strings in Wagtail, which no catalog translates).
WAGTAIL_MESSAGES = [
    ("pages/?limit=101", "limit must be at most 100"),
    ("pages/?type=x", "type doesn't exist"),
    ("pages/?fields=nope", "unknown fields: nope"),
    ("pages/?fields=title(", "fields error: unexpected end of input"),
    ("pages/?nope=1", "query parameter is not an operation or a recognised field: nope"),
    ("pages/?type=digests.DigestPage&fields=topic(title)", "'topic' does not support nested"),
    ("pages/?order=random&offset=1", "random ordering with offset is not supported"),
    ("pages/?order=random,title", "random ordering cannot be combined with other fields"),
    ("pages/?order=nope", "cannot order by 'nope' (unknown field)"),
    ("pages/?child_of=99999", "parent page doesn't exist"),
    ("pages/?descendant_of=99999", "ancestor page doesn't exist"),
    ("pages/?ancestor_of=99999", "descendant page doesn't exist"),
    ("pages/?translation_of=99999", "translation_of page doesn't exist"),
    ("pages/?child_of=3&descendant_of=3", "filtering by descendant_of with child_of is not"),
    ("pages/?rich_text_format=x", "rich_text_format must be one of 'db_html'"),
    ("papers/999999/", "No Paper matches the given query."),
    ("images/999999/", "No Image matches the given query."),
    ("documents/999999/", "No Document matches the given query."),
    ("images/?fields=nope", "unknown fields: nope"),
]


@pytest.mark.parametrize(("path", "english"), WAGTAIL_MESSAGES)
def test_wagtail_s_messages_go_through_the_project_s_catalog(client, monkeypatch, path, english):
    """Each is said again through gettext, so it is in the request's language once the
    catalog has it (here gettext marks what it was asked for)."""
    monkeypatch.setattr("cms.api_messages._", lambda message: f"«{message}»")
    response = client.get(f"/api/v2/{path}")
    assert response.status_code in (400, 404)
    message = response.json()["message"]
    assert message.startswith("«"), message
    assert english in message.replace("«", "").replace("»", "")


@pytest.mark.parametrize(
    ("path", "chinese"),
    [
        ("pages/?limit=101", "limit 不可大於 100"),
        ("images/?nope=1", "查詢參數既非操作也非可辨識的欄位\uff1anope"),
        ("papers/999999/", "找不到符合查詢的 Paper。"),
    ],
)
def test_wagtail_s_messages_follow_the_browser_s_language(client, path, chinese):
    response = client.get(f"/api/v2/{path}", HTTP_ACCEPT_LANGUAGE="zh-TW")
    assert response.json() == {"message": chinese}
