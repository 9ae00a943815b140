"""The translator sees Simplified characters on their segment in the editor, cannot publish them."""

import html
import json
import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse
from wagtail.users.models import UserProfile
from wagtail_localize.models import StringTranslation, Translation

from cms.digests.models import DigestPage

pytestmark = pytest.mark.django_db


@pytest.fixture
def simplified_summary(digest_en, zh_locale):
    StringTranslation.objects.filter(
        locale=zh_locale, context__object_id=digest_en.translation_key, context__path="summary"
    ).update(data="说明资料中心網路")


def editor_props(response) -> dict:
    match = re.search(
        r'class="js-translation-editor" data-props="([^"]*)"', response.content.decode()
    )
    assert match, "no translation editor on the page"
    return json.loads(html.unescape(match.group(1)))


def summary_error(response) -> str:
    """The error the editor shows on the summary's segment."""
    props = editor_props(response)
    summary = next(s for s in props["segments"] if s.get("contentPath") == "summary")
    return next(t for t in props["initialStringTranslations"] if t["segment_id"] == summary["id"])[
        "error"
    ]


@pytest.mark.parametrize(
    ("language", "expected", "absent"),
    [
        ("en", "Simplified Chinese 说、资: write 說、資 instead.", "簡體字"),
        ("zh-hant", "簡體字「说、资」請改為「說、資」；", "Simplified"),  # noqa: RUF001
    ],
)
def test_editor_shows_simplified_characters_once_on_their_segment(
    client, translator, digest_zh, simplified_summary, language, expected, absent
):
    profile = UserProfile.get_for_user(translator)
    profile.preferred_language = language
    profile.save()
    client.force_login(translator)
    response = client.get(reverse("wagtailadmin_pages:edit", args=[digest_zh.pk]))
    assert response.status_code == 200

    error = summary_error(response)
    assert expected in error and absent not in error
    # Said on the segment only, not again above the editor.
    page_text = response.content.decode().split("js-translation-editor")[0]
    assert "说" not in page_text and "资" not in page_text


def refused_publish(client, page: DigestPage, capture) -> tuple[DigestPage, str]:
    """Press Publish in the page editor as the logged-in user; the guard refuses it and the
    live revision stays. Returns the page as stored afterwards and the screen's text."""
    before = DigestPage.objects.get(pk=page.pk).live_revision_id
    with capture(execute=True):
        response = client.post(
            reverse("wagtailadmin_pages:edit", args=[page.pk]), {"action": "publish"}, follow=True
        )
    shown = response.content.decode()
    assert "Not published." in shown
    stored = DigestPage.objects.get(pk=page.pk)
    assert stored.live_revision_id == before
    return stored, shown


def test_publishing_simplified_text_is_refused(
    client, translator, digest_zh, simplified_summary, django_capture_on_commit_callbacks
):
    client.force_login(translator)
    page = refused_publish(client, digest_zh, django_capture_on_commit_callbacks)[0]
    assert "资" not in page.summary


def test_traditional_text_publishes(
    client, translator, digest_zh, django_capture_on_commit_callbacks
):
    client.force_login(translator)
    url = reverse("wagtailadmin_pages:edit", args=[digest_zh.pk])
    before = DigestPage.objects.get(pk=digest_zh.pk).live_revision_id

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "publish"})

    assert response.status_code == 302
    assert DigestPage.objects.get(pk=digest_zh.pk).live_revision_id != before


def test_publishing_a_translation_with_untranslated_texts_is_refused(
    client, translator, digest_en, digest_zh, zh_locale, django_capture_on_commit_callbacks
):
    """Readers of zh-hant would see the English summary: the translator is told, and the live
    page keeps its text."""
    StringTranslation.objects.filter(
        locale=zh_locale, context__object_id=digest_en.translation_key, context__path="summary"
    ).delete()
    client.force_login(translator)
    url = reverse("wagtailadmin_pages:edit", args=[digest_zh.pk])
    before = DigestPage.objects.get(pk=digest_zh.pk).live_revision_id

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "publish"}, follow=True)

    assert "1 of 2 texts are not translated yet" in response.content.decode()
    page = DigestPage.objects.get(pk=digest_zh.pk)
    assert page.live_revision_id == before
    assert page.summary != digest_en.summary


@pytest.mark.parametrize("role", ["translator", "administrator"])
def test_publishing_texts_nobody_reviewed_asks_first(
    request, client, role, digest_en, digest_zh, zh_locale, django_capture_on_commit_callbacks
):
    """A sync's previous translation (or a machine's) goes live only once the publisher says
    so: the first "Publish" asks, and publishes nothing."""
    StringTranslation.objects.filter(
        locale=zh_locale, context__object_id=digest_en.translation_key, context__path="summary"
    ).update(translation_type=StringTranslation.TRANSLATION_TYPE_MACHINE)
    if role == "translator":
        user = request.getfixturevalue("translator")
    else:  # editors publish English only; administrators publish both
        user = get_user_model().objects.create_superuser("admin", "admin@example.com", "pw")
    client.force_login(user)
    url = reverse("wagtailadmin_pages:edit", args=[digest_zh.pk])
    before = DigestPage.objects.get(pk=digest_zh.pk).live_revision_id

    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(url, {"action": "publish"})

    assert asked.status_code == 200
    assert "1 text was filled in automatically" in asked.content.decode()
    assert 'name="confirm-unreviewed"' in asked.content.decode()
    assert DigestPage.objects.get(pk=digest_zh.pk).live_revision_id == before

    with django_capture_on_commit_callbacks(execute=True):
        confirmed = client.post(url, {"action": "publish", "confirm-unreviewed": "1"})

    assert confirmed.status_code == 302
    assert DigestPage.objects.get(pk=digest_zh.pk).live_revision_id != before


def test_a_refusal_names_five_places_and_counts_the_rest():
    """Every unusable string must be found before publishing; naming only five without saying
    more exist sent the translator back to publish again and again."""
    from django.utils import translation

    from cms.translation.policy.rules import listed

    places = [f"Body \u203a Paragraph {n}: 说" for n in range(1, 8)]
    assert listed(places[:5]) == "; ".join(places[:5])
    assert listed(places) == "; ".join(places[:5]) + "; and 2 more"
    with translation.override("zh-hant"):
        assert listed(places).endswith("说；還有 2 項")  # noqa: RUF001


def english_with_simplified_copies(digest_en) -> DigestPage:
    """The English digest with Simplified characters where a translation copies text unchanged:
    its short name (synchronized) and a code block (never sent for translation)."""
    english = DigestPage.objects.get(pk=digest_en.pk)
    english.short_name = "网络Perf"
    english.body.append(("code", {"language": "python", "code": "# 计算\nprint(1)"}))
    english.save_revision().publish()
    Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale__language_code="zh-hant"
    ).source.update_from_db()
    return english


def test_simplified_text_copied_from_english_is_not_published(
    client, translator, digest_en, digest_zh, django_capture_on_commit_callbacks
):
    """The guard read only translated strings: a short name or code block copied from English
    put Simplified characters live on the zh-hant page."""
    english_with_simplified_copies(digest_en)
    client.force_login(translator)
    page, shown = refused_publish(client, digest_zh, django_capture_on_commit_callbacks)
    assert "网" in shown and "计" in shown
    assert page.short_name == digest_en.short_name
    api = client.get(f"/api/v2/pages/{digest_zh.pk}/").json()
    assert api["short_name"] == digest_en.short_name
    assert "计" not in str(api["body"])
