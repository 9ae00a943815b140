"""What the translator is told when publishing is refused: what is wrong, and where."""

import pytest
from django.urls import reverse
from django.utils.http import urlencode
from wagtail.rich_text import RichText
from wagtail_localize.models import StringSegment, Translation

from cms.digests.models import DigestPage
from cms.translation.guard.places import SEPARATOR

pytestmark = pytest.mark.django_db

PARAGRAPHS = ["Alpha paragraph.", "Beta paragraph.", "Gamma paragraph."]


@pytest.fixture
def digest_with_paragraphs(new_digest):
    page = new_digest("Rail fabrics.")
    page.body = [("paragraph", RichText(f"<p>{text}</p>")) for text in PARAGRAPHS]
    page.save_revision().publish()
    return page


def translate(client, translation: Translation, special: dict[str, str]) -> None:
    """Translate every segment as the logged-in translator, in the translation editor's API;
    the English strings in `special` get the given translation."""
    for segment in StringSegment.objects.filter(source=translation.source).select_related("string"):
        value = special.get(segment.string.data, f"譯文{segment.pk}")
        response = client.put(
            reverse("wagtail_localize:edit_string_translation", args=[translation.pk, segment.pk]),
            urlencode({"value": value}),
            content_type="application/x-www-form-urlencoded",
        )
        assert response.status_code in (200, 201)


def publish(client, page: DigestPage, django_capture_on_commit_callbacks) -> str:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("wagtailadmin_pages:edit", args=[page.pk]), {"action": "publish"}, follow=True
        )
    return response.content.decode()


def test_a_disallowed_tag_is_named_with_its_place(
    client, digest_with_paragraphs, start_translation, django_capture_on_commit_callbacks
):
    translation = start_translation(digest_with_paragraphs)
    translate(client, translation, {"Beta paragraph.": "<h1>乙段落。</h1>"})
    zh = translation.get_target_instance()

    html = publish(client, zh, django_capture_on_commit_callbacks)

    assert "not translated yet" not in html
    assert "&lt;h1&gt; tag is not allowed" in html
    assert f"Body{SEPARATOR}Paragraph 2: " in html
    zh.refresh_from_db()
    assert not zh.live


def test_simplified_characters_are_placed_as_a_person_reads_it(
    client, digest_with_paragraphs, start_translation, django_capture_on_commit_callbacks
):
    translation = start_translation(digest_with_paragraphs)
    translate(client, translation, {"Gamma paragraph.": "丙段落网络。"})
    zh = translation.get_target_instance()

    html = publish(client, zh, django_capture_on_commit_callbacks)

    assert "Simplified Chinese characters found" in html
    assert f"Body{SEPARATOR}Paragraph 3: Simplified 网络 in" in html
    assert "write 網路" in html
    assert "body." not in html.split("Simplified Chinese characters found")[1][:200]
    zh.refresh_from_db()
    assert not zh.live


def test_an_invalid_string_of_a_removed_paragraph_does_not_block(
    client, digest_with_paragraphs, start_translation, django_capture_on_commit_callbacks
):
    """The English paragraph was removed and the translation synced: its flagged string is no
    longer shown to the translator, so it must not keep the page from going live."""
    translation = start_translation(digest_with_paragraphs)
    translate(client, translation, {"Beta paragraph.": "<h1>乙段落。</h1>"})
    english = DigestPage.objects.get(pk=digest_with_paragraphs.pk)
    del english.body[1]  # Beta
    english.save_revision().publish()
    translation.source.update_from_db()
    zh = translation.get_target_instance()

    publish(client, zh, django_capture_on_commit_callbacks)

    zh.refresh_from_db()
    assert zh.live
    assert "乙段落" not in str(zh.body)
