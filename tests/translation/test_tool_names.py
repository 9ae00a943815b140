"""Tool names stored with filled texts are one value, shown in each viewer's language.

A sync's previous translation and "Translate with ..." mark what they fill with a tool name
(cms.translation.workflow.previous, cms.terminology.views). Whoever runs them, the stored name is
the same; the status report translates it for whoever reads it.
"""

import pytest
from django.urls import reverse
from django.utils import translation as i18n
from wagtail.users.models import UserProfile
from wagtail_localize.models import StringTranslation, TranslationSource

from cms.translation.status.statuses import translation_status

pytestmark = pytest.mark.django_db

PREVIOUS_EN = "previous translation (English changed, please review)"
PREVIOUS_ZH = "先前的翻譯（英文已變更，請校閱）"  # noqa: RUF001 (the catalog's punctuation)


def working_in_chinese(user):
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "zh-hant"
    profile.save()
    return user


def test_a_sync_by_an_administrator_in_chinese_stores_one_name(
    client, admin_user, digest_en, digest_zh
):
    client.force_login(working_in_chinese(admin_user))
    digest_en.summary = "A changed English summary."
    digest_en.save_revision().publish()
    source = TranslationSource.objects.get(object_id=digest_en.translation_key)

    response = client.post(reverse("wagtail_localize:update_translations", args=[source.pk]))

    assert response.status_code == 302
    carried = StringTranslation.objects.get(
        context__object_id=digest_en.translation_key,
        context__path="summary",
        translation_of__data="A changed English summary.",
    )
    assert carried.tool_name == PREVIOUS_EN
    with i18n.override("en"):
        assert translation_status(digest_zh).translated_by == PREVIOUS_EN
    with i18n.override("zh-hant"):
        assert translation_status(digest_zh).translated_by == PREVIOUS_ZH


def test_translate_with_memory_in_chinese_stores_one_name(
    client, translator, digest_en, new_digest, start_translation
):
    page = new_digest(digest_en.summary)
    translation = start_translation(page)
    working_in_chinese(translator)

    response = client.post(
        reverse("wagtail_localize:machine_translate", args=[translation.pk]), {"next": "/admin/"}
    )

    assert response.status_code == 302
    names = set(
        StringTranslation.objects.filter(
            context__object_id=page.translation_key, locale=translation.target_locale
        ).values_list("tool_name", flat=True)
    )
    assert names == {"translation memory", "Dummy translator"}
