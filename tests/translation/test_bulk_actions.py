"""Bulk Delete and Move in the page explorer: a translator's confirmation screen says at once
that they may not, instead of asking them to confirm what the last step then refuses."""

import pytest
from django.urls import reverse
from wagtail.models import Page

pytestmark = pytest.mark.django_db


def bulk_url(action: str, *pages: Page) -> str:
    ids = "&".join(f"id={page.pk}" for page in pages)
    return reverse("wagtail_bulk_action", args=["wagtailcore", "page", action]) + f"?{ids}"


@pytest.mark.parametrize(
    ("action", "refusal", "confirm"),
    [
        ("delete", "You don't have permission to delete this page", "Yes, delete"),
        ("move", "You don't have permission to move this page", "Select a new parent page"),
    ],
)
def test_a_translator_is_told_at_once_and_offered_no_confirmation(
    client, translator, digest_zh, action, refusal, confirm
):
    client.force_login(translator)

    response = client.get(bulk_url(action, digest_zh))

    assert response.status_code == 200
    assert list(response.context["items"]) == []
    assert [row["item"].pk for row in response.context["items_with_no_access"]] == [digest_zh.pk]
    html = response.content.decode()
    assert refusal in html and digest_zh.title in html
    assert confirm not in html


def test_a_translator_s_post_still_deletes_nothing(client, translator, digest_zh):
    client.force_login(translator)

    client.post(bulk_url("delete", digest_zh))

    assert Page.objects.filter(pk=digest_zh.pk).exists()


def test_an_editor_still_confirms_deleting_an_english_page(client, editor, new_digest):
    page = new_digest("A digest to delete.")
    client.force_login(editor)

    html = client.get(bulk_url("delete", page)).content.decode()
    assert "Yes, delete" in html and "You don't have permission" not in html

    client.post(bulk_url("delete", page))
    assert not Page.objects.filter(pk=page.pk).exists()


def test_the_bulk_unpublish_confirmation_names_the_live_translations(
    client, editor, digest_en, digest_zh
):
    client.force_login(editor)

    html = client.get(bulk_url("unpublish", digest_en)).content.decode()

    assert "Their live translations are unpublished with them:" in html
    assert digest_zh.title in html


def test_an_editor_bulk_deletes_a_topic_with_its_digests_and_translations(
    client, editor, digest_en, digest_zh
):
    topic, zh_topic = digest_en.get_parent(), digest_zh.get_parent()
    gone = [topic.pk, zh_topic.pk, *topic.get_descendants().values_list("pk", flat=True)]
    gone += zh_topic.get_descendants().values_list("pk", flat=True)
    client.force_login(editor)

    html = client.get(bulk_url("delete", topic)).content.decode()
    assert "Their translations are deleted with them:" in html and zh_topic.title in html
    assert "You don't have permission" not in html

    client.post(bulk_url("delete", topic))

    assert not Page.objects.filter(pk__in=gone).exists()
    assert Page.objects.filter(pk=topic.get_parent().pk).exists()
