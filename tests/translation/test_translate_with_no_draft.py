""" "Translate with ..." for a translation whose zh-hant page is gone (its draft was deleted after
the translation was started): it used to be a 500 (`DigestPage.DoesNotExist`)."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from wagtail_localize.models import StringTranslation, Translation, TranslationSource

from cms.digests.models import DigestPage

pytestmark = pytest.mark.django_db


@pytest.fixture
def translation_without_page(new_digest, zh_locale):
    """A live English digest's translation into zh-hant, with no zh-hant page."""
    page = new_digest("Rail fabrics carry the load.")
    source, _created = TranslationSource.get_or_create_from_instance(page)
    translation = Translation.objects.create(source=source, target_locale=zh_locale)
    assert page.get_translation_or_none(zh_locale) is None
    return translation


def translate_with(client, translation):
    return client.post(
        reverse("wagtail_localize:machine_translate", args=[translation.pk]), {"next": "/admin/"}
    )


def test_the_translator_gets_the_draft_back_and_translated(
    client, translator, translation_without_page, zh_locale
):
    client.force_login(translator)

    response = translate_with(client, translation_without_page)

    assert response.status_code == 302
    page = DigestPage.objects.get(
        translation_key=translation_without_page.source.object_id, locale=zh_locale
    )
    assert not page.live  # a draft, as the queue creates it: nothing published
    filled = StringTranslation.objects.filter(
        context__object_id=page.translation_key, locale=zh_locale
    )
    assert filled.filter(context__path="title").exists()
    assert client.get(f"/api/v2/pages/{page.pk}/").status_code == 404


def test_an_editor_cannot_make_the_draft_with_it(client, editor, translation_without_page):
    client.force_login(editor)

    response = translate_with(client, translation_without_page)

    # Wagtail's admin answers PermissionDenied with a redirect home and its message.
    assert response.status_code == 302 and response.url == reverse("wagtailadmin_home")
    assert "permission" in " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert not DigestPage.objects.filter(
        translation_key=translation_without_page.source.object_id, locale__language_code="zh-hant"
    ).exists()


def test_a_page_taken_offline_meanwhile_is_a_message(client, translator, translation_without_page):
    source = translation_without_page.source.get_source_instance()
    source.unpublish()
    client.force_login(translator)

    response = translate_with(client, translation_without_page)

    assert response.status_code == 302
    assert "is not published yet" in " ".join(str(m) for m in get_messages(response.wsgi_request))
