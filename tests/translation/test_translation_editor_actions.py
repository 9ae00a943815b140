"""Stopping a translation and converting it to an alias: not for translators, who translate.

Stopping detaches the zh-hant page from English, after which its synchronized fields (images,
links, numbers) are editable in Wagtail's own editor; converting puts the English text live.
Both are refused at wagtail-localize's URLs and left out of its translation editor's footer.
"""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from wagtail_localize.models import Translation

pytestmark = pytest.mark.django_db


def _translation(page_en, zh_locale) -> Translation:
    return Translation.objects.get(
        source__object_id=page_en.translation_key, target_locale=zh_locale
    )


def test_translator_cannot_stop_the_translation(
    client, translator, digest_en, digest_zh, zh_locale
):
    client.force_login(translator)
    translation = _translation(digest_en, zh_locale)

    response = client.post(reverse("wagtail_localize:stop_translation", args=[translation.pk]))

    assert response.status_code == 403
    assert "may not stop this translation" in response.content.decode()
    # Not the admin's redirect to the dashboard with a generic "Sorry" queued for later.
    assert not [m for m in get_messages(response.wsgi_request) if "permission" in str(m)]
    assert _translation(digest_en, zh_locale).enabled
    # The zh-hant page still opens in the translation editor, not in Wagtail's own form.
    editor = client.get(reverse("wagtailadmin_pages:edit", args=[digest_zh.pk]))
    assert b"js-translation-editor" in editor.content


def test_administrator_may_stop_it(client, admin_user, digest_en, digest_zh, zh_locale):
    client.force_login(admin_user)
    translation = _translation(digest_en, zh_locale)

    response = client.post(
        reverse("wagtail_localize:stop_translation", args=[translation.pk]),
        {"next": reverse("wagtailadmin_pages:edit", args=[digest_zh.pk])},
    )

    assert response.status_code == 302
    assert not _translation(digest_en, zh_locale).enabled


def _body_classes(response) -> str:
    content = response.content.decode()
    start = content.index('<body id="wagtail" class="') + len('<body id="wagtail" class="')
    return content[start : content.index('"', start)]


def test_translation_editor_hides_stop_and_convert_from_translators(client, translator, digest_zh):
    client.force_login(translator)
    response = client.get(reverse("wagtailadmin_pages:edit", args=[digest_zh.pk]))

    assert b"js-translation-editor" in response.content
    classes = _body_classes(response).split()
    assert "translation-refuses-stop" in classes
    assert "translation-refuses-alias" in classes


def test_translation_editor_offers_them_to_administrators(client, admin_user, digest_zh):
    client.force_login(admin_user)
    response = client.get(reverse("wagtailadmin_pages:edit", args=[digest_zh.pk]))

    assert b"js-translation-editor" in response.content
    classes = _body_classes(response)
    assert "translation-refuses" not in classes
    assert b"convert_to_alias" in response.content


def _stopped(translation: Translation) -> Translation:
    translation.enabled = False
    translation.save(update_fields=["enabled"])
    return translation


def test_translator_cannot_restart_a_stopped_translation(
    client, translator, digest_en, digest_zh, zh_locale
):
    """An administrator stopped it to give the page a life of its own; starting it again would
    let the next publish put English's synchronized values back: the same decision, theirs."""
    _stopped(_translation(digest_en, zh_locale))
    client.force_login(translator)
    edit_url = reverse("wagtailadmin_pages:edit", args=[digest_zh.pk])

    assert b"localize-restart-translation" not in client.get(edit_url).content
    response = client.post(edit_url, {"localize-restart-translation": "1"})

    assert response.status_code == 403
    assert "may not start this translation again" in response.content.decode()
    assert not _translation(digest_en, zh_locale).enabled


def test_administrator_may_restart_it(client, admin_user, digest_en, digest_zh, zh_locale):
    _stopped(_translation(digest_en, zh_locale))
    client.force_login(admin_user)
    edit_url = reverse("wagtailadmin_pages:edit", args=[digest_zh.pk])

    assert b"localize-restart-translation" in client.get(edit_url).content
    response = client.post(edit_url, {"localize-restart-translation": "1"})

    assert response.status_code == 302
    assert _translation(digest_en, zh_locale).enabled
