"""Wagtail's page permissions ask the policy where no view hook can: translators are offered no
Delete (nor Move) in the translation editor, and may not make pages private (password, login,
groups), neither through Wagtail's privacy dialog nor by posting to it; editors still may in
English."""

import pytest
from django.urls import reverse
from wagtail.models import Page, PageViewRestriction

pytestmark = pytest.mark.django_db

PRIVACY_BUTTON = 'data-a11y-dialog-show="set-privacy"'
PASSWORD = {"restriction_type": PageViewRestriction.PASSWORD, "password": "s3cret"}


def test_a_translator_cannot_make_a_chinese_page_private(client, translator, digest_zh):
    client.force_login(translator)
    root = Page.objects.get(pk=digest_zh.pk).get_parent().get_parent()

    for page in (digest_zh, root):
        response = client.post(reverse("wagtailadmin_pages:set_privacy", args=[page.pk]), PASSWORD)
        assert response.status_code in (302, 403)

    assert not PageViewRestriction.objects.exists()
    assert (
        not Page.objects.get(pk=digest_zh.pk)
        .permissions_for_user(translator)
        .can_set_view_restrictions()
    )
    # The translation editor's status panel offers no "Change privacy" button either.
    html = client.get(reverse("wagtailadmin_pages:edit", args=[digest_zh.pk])).content.decode()
    assert PRIVACY_BUTTON not in html


def test_an_editor_still_makes_an_english_page_private(client, editor, digest_en):
    client.force_login(editor)
    privacy_url = reverse("wagtailadmin_pages:set_privacy", args=[digest_en.pk])
    html = client.get(reverse("wagtailadmin_pages:edit", args=[digest_en.pk])).content.decode()
    assert PRIVACY_BUTTON in html

    response = client.post(privacy_url, PASSWORD)

    assert response.status_code == 200
    assert PageViewRestriction.objects.filter(page=digest_en, password="s3cret").exists()


def test_the_translation_editor_offers_a_translator_no_delete(client, translator, digest_zh):
    client.force_login(translator)

    html = client.get(reverse("wagtailadmin_pages:edit", args=[digest_zh.pk])).content.decode()

    assert "&quot;canDelete&quot;: false" in html
    assert "&quot;canPublish&quot;: true" in html
    assert f'href="{reverse("wagtailadmin_pages:delete", args=[digest_zh.pk])}"' not in html
    assert not Page.objects.get(pk=digest_zh.pk).permissions_for_user(translator).can_move()


def test_an_editor_is_still_offered_delete_on_an_english_page(client, editor, digest_en):
    client.force_login(editor)

    html = client.get(reverse("wagtailadmin_pages:edit", args=[digest_en.pk])).content.decode()

    assert f'href="{reverse("wagtailadmin_pages:delete", args=[digest_en.pk])}"' in html
