"""The page_preview endpoint: drafts through signed, expiring tokens; the public API stays live."""

import re
import time
from html import unescape
from unittest import mock

import pytest
from django.contrib.auth import get_user_model
from django.test import RequestFactory
from django.urls import reverse

from cms.digests.models import DigestPage, TopicPage
from tests.support.factories import DigestPageFactory

pytestmark = pytest.mark.django_db

IFRAME_SRC = re.compile(r'<iframe src="([^"]+)"')


@pytest.fixture
def editor():
    return get_user_model().objects.create_superuser("editor", "editor@example.com", "pw")


def fabricperf(lang: str = "en") -> DigestPage:
    return DigestPage.objects.get(slug="fabricperf", locale__language_code=lang)


def save_draft(page, **changes):
    """An editor's unpublished change: a new revision, the live page untouched."""
    draft = page.get_latest_revision_as_object()
    for name, value in changes.items():
        setattr(draft, name, value)
    return draft.save_revision().as_object()


def preview_url(draft, user) -> str:
    """The reader URL the admin's preview frame opens, produced by wagtail-headless-preview."""
    request = RequestFactory().get("/admin/", SERVER_NAME="localhost")
    request.user = user
    response = draft.serve_preview(request, draft.default_preview_mode)
    return unescape(IFRAME_SRC.search(response.content.decode()).group(1))


def api_query(url: str) -> str:
    assert url.startswith("/preview/?"), url
    return url.removeprefix("/preview/")


def test_preview_serves_the_draft_while_the_pages_api_serves_the_live_page(client, editor):
    live_title = fabricperf().title
    draft = save_draft(fabricperf(), title="FabricPerf, revised", summary="A draft summary.")
    url = preview_url(draft, editor)

    response = client.get("/api/v2/page_preview/" + api_query(url) + "&rich_text_format=html")
    assert response.status_code == 200
    data = response.json()
    assert response.content.startswith(b'{"id":')  # compact, as every API answer
    assert data["title"] == "FabricPerf, revised"
    assert data["summary"] == "A draft summary."
    assert data["meta"]["type"] == "digests.DigestPage"
    assert data["meta"]["locale"] == "en"
    assert data["topic"]["slug"] == "inside-the-server"
    assert data["paper"]["venue"]["acronym"] == "SIGCOMM"
    assert response["Cache-Control"] == "private, no-store"

    public = client.get(
        "/api/v2/pages/?type=digests.DigestPage&slug=fabricperf&locale=en&fields=summary"
    )
    assert public.json()["items"][0]["title"] == live_title


def test_a_translated_page_previews_in_its_own_language(client, editor):
    topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code="zh-hant")
    draft = save_draft(topic, intro="草稿:這個主題的導言。")
    response = client.get("/api/v2/page_preview/" + api_query(preview_url(draft, editor)))
    assert response.status_code == 200
    assert response.json()["intro"] == "草稿:這個主題的導言。"
    assert response.json()["meta"]["locale"] == "zh-hant"
    assert [digest["slug"] for digest in response.json()["digests"]] == [
        "fabricperf",
        "infinitehbd",
        "pingpoint",
    ]


def test_the_admin_preview_frame_points_at_the_reader(client, editor):
    page = fabricperf()
    revision = page.get_latest_revision_as_object().save_revision(user=editor)
    client.force_login(editor)
    response = client.get(reverse("wagtailadmin_pages:revisions_view", args=(page.pk, revision.pk)))
    assert response.status_code == 200
    src = unescape(IFRAME_SRC.search(response.content.decode()).group(1))
    assert src.startswith("/preview/?content_type=digests.digestpage&token=")
    assert client.get(src).status_code == 200


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("token=abc", 400, "'content_type' must be a previewable page type"),
        ("content_type=papers.paper&token=abc", 400, "'content_type' must be a previewable"),
        ("content_type=nonsense&token=abc", 400, "got 'nonsense'"),
        ("content_type=digests.digestpage", 400, "the 'token' parameter is required"),
        ("content_type=digests.digestpage&token=id=1:forged:sig", 404, "no preview matches"),
        ("content_type=digests.digestpage&token=abc&format=xml", 400, "format must be one of"),
    ],
)
def test_bad_requests_say_what_is_wrong(client, query, status, message):
    response = client.get(f"/api/v2/page_preview/?{query}")
    assert response.status_code == status
    assert message in response.json()["message"]


def test_a_validly_signed_token_without_a_stored_preview_is_not_found(client):
    token = DigestPage.get_preview_signer().sign(f"id={fabricperf().pk}")
    response = client.get(f"/api/v2/page_preview/?content_type=digests.digestpage&token={token}")
    assert response.status_code == 404


def test_tokens_expire(client, settings):
    settings.PREVIEW_TOKEN_MAX_AGE = 3600
    draft = save_draft(fabricperf(), title="Old draft")
    with mock.patch("django.core.signing.time.time", return_value=time.time() - 3601):
        old_token = draft.create_page_preview().token  # signed an hour and a second ago

    response = client.get(
        f"/api/v2/page_preview/?content_type=digests.digestpage&token={old_token}"
    )
    assert response.status_code == 410
    assert "expired" in response.json()["message"]


def test_preview_shell_is_never_cached(client):
    response = client.get("/preview/?content_type=digests.digestpage&token=x")
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    assert response["X-Robots-Tag"] == "noindex"


def test_previews_are_never_served_from_the_api_response_cache(client):
    draft = save_draft(fabricperf(), title="First draft")
    token = draft.create_page_preview().token
    url = f"/api/v2/page_preview/?content_type=digests.digestpage&token={token}"
    assert client.get(url).json()["title"] == "First draft"

    # The editor changes the draft again; the same preview link must show the new text.
    save_draft(fabricperf(), title="Second draft").update_page_preview(token)
    assert client.get(url).json()["title"] == "Second draft"


def test_a_page_that_was_never_saved_can_be_previewed(client):
    topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code="en")
    new = DigestPageFactory.build(
        title="A digest still being written",
        slug="still-being-written",
        short_name="Draft",
        reading_minutes=5,
        summary="Not saved yet.",
        locale=topic.locale,
    )
    # What the admin's "preview" on the create form does before it has a page to save.
    new.depth = topic.depth + 1
    new.path = DigestPage._get_children_path_interval(topic.path)[1]
    token = new.create_page_preview().token

    response = client.get(f"/api/v2/page_preview/?content_type=digests.digestpage&token={token}")
    assert response.status_code == 200
    assert response.json()["title"] == "A digest still being written"
    assert response.json()["topic"]["slug"] == "inside-the-server"


def test_the_preview_endpoint_finds_no_page_by_address(client):
    """Wagtail's find/ on the preview endpoint ran Wagtail's own rule, not the public API's:
    it redirected to the id of a live digest below an unpublished topic."""
    digest = fabricperf()
    digest.get_parent().specific.unpublish()
    path = digest.get_url_parts()[2]
    assert client.get("/api/v2/pages/find/", {"html_path": path}).status_code == 404
    for query in ({"html_path": path}, {"id": digest.pk}):
        response = client.get("/api/v2/page_preview/find/", query)
        assert response.status_code == 404
        assert "Location" not in response
        assert response.json() == {"message": "not found: /api/v2/page_preview/find/"}


def test_the_preview_endpoint_answers_as_its_description_says(conforms, editor, settings):
    """A separate front end's preview route reads this endpoint: the OpenAPI description
    must name it, its parameters and each of its answers."""
    from urllib.parse import parse_qsl

    draft = save_draft(fabricperf("zh-hant"), title="草稿標題")
    query = dict(parse_qsl(api_query(preview_url(draft, editor)).removeprefix("?")))
    body = conforms("/api/v2/page_preview/", rich_text_format="html", **query).json()
    assert body["title"] == "草稿標題"
    topic = TopicPage.objects.get(slug="inside-the-server", locale__language_code="en")
    topic_query = dict(
        parse_qsl(api_query(preview_url(save_draft(topic), editor)).removeprefix("?"))
    )
    assert conforms("/api/v2/page_preview/", **topic_query).json()["digests"]

    conforms("/api/v2/page_preview/", 400, content_type="digests.digestpage")
    conforms("/api/v2/page_preview/", 400, content_type="papers.paper", token="x")
    conforms("/api/v2/page_preview/", 404, content_type="digests.digestpage", token="id=1:a:b")
    settings.PREVIEW_TOKEN_MAX_AGE = 0
    time.sleep(1)
    conforms("/api/v2/page_preview/", 410, **query)


@pytest.mark.django_db
def test_a_null_character_in_the_query_is_a_400_naming_it(client):
    """PostgreSQL refuses a NUL byte in a text value: it must never reach the database."""
    response = client.get("/api/v2/page_preview/", {"content_type": "digests.\x00", "token": "x"})
    assert response.status_code == 400
    assert "null characters" in response.json()["message"]
