"""wagtail-localize's own messages reach a zh-hant translator in Traditional Chinese.

wagtail-localize ships a zh_Hant catalog with only a few of its messages; the project's vendor
catalog (locales/vendor/, in LOCALE_PATHS) carries all of them, for its Python messages and for
the translation editor's JavaScript catalog alike.
"""

import json
import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from django.utils import translation as i18n
from wagtail.users.models import UserProfile
from wagtail_localize.strings import StringValue

pytestmark = pytest.mark.django_db

TAG_NOT_ALLOWED = "不允許使用 <div> 標籤。字串只能包含標準的 HTML 行內標籤（例如 <b>、<a>）"  # noqa: RUF001


def working_in_chinese(user):
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = "zh-hant"
    profile.save()
    return user


def test_a_string_with_a_block_tag_is_refused_in_chinese():
    with i18n.override("zh-hant"), pytest.raises(ValueError) as refused:
        StringValue.from_translated_html("<div>一段文字</div>")

    assert refused.value.args[0] == TAG_NOT_ALLOWED


def test_the_project_catalog_wins_over_the_vendor_one():
    """Both define "Up to date"; the project's own catalog comes first in LOCALE_PATHS."""
    with i18n.override("zh-hant"):
        assert i18n.gettext("Up to date") == "已是最新"
        assert (
            i18n.gettext("Translated with {tool_name} on {date}") == "於 {date} 用{tool_name}翻譯"
        )


def test_a_po_file_of_another_translation_is_refused_in_chinese(
    client, translator, new_digest, start_translation
):
    translation = start_translation(new_digest("Rails carry the fabric."))
    client.force_login(working_in_chinese(translator))
    other = f'msgid ""\nmsgstr ""\n"X-WagtailLocalize-TranslationID: {uuid.uuid4()}\\n"\n'

    response = client.post(
        reverse("wagtail_localize:upload_pofile", args=[translation.pk]),
        {"file": SimpleUploadedFile("other.po", other.encode(), "text/x-gettext-translation")},
        HTTP_REFERER="/admin/",
    )

    # Refused with a 400 page (cms.translation.views.po_upload), no longer a message after a
    # redirect.
    assert response.status_code == 400
    page = response.content.decode()
    assert "這個 PO 檔的 X-WagtailLocalize-TranslationID 標頭指向另一份翻譯" in page
    assert "回到翻譯" in page


def editor_catalog(client) -> dict[str, str]:
    """The JavaScript catalog the translation editor loads, as {msgid: translation}."""
    response = client.get(reverse("wagtail_localize:javascript_catalog"))
    assert response.status_code == 200
    found = re.search(r"const newcatalog = (\{.*?\});\n", response.content.decode(), re.S)
    assert found, "the catalog has no zh-hant messages at all"
    return json.loads(found.group(1))


def test_the_translation_editor_labels_are_chinese_for_a_zh_hant_translator(client, translator):
    client.force_login(working_in_chinese(translator))

    catalog = editor_catalog(client)

    assert catalog["Publish in "] == "發布："  # noqa: RUF001
    assert catalog["Translate with "] == "用以下工具翻譯："  # noqa: RUF001
    assert catalog["Stop Synced translation"] == "停止同步翻譯"
    assert catalog["Convert to alias page"] == "轉換為別名頁面"
    assert catalog["Not translated"] == "未翻譯"
    assert catalog["segments translated"] == "個片段已翻譯"
    assert catalog["Upload PO file"] == "上傳 PO 檔案"
    assert catalog["Download PO file"] == "下載 PO 檔案"
    # wagtail-localize's own zh_Hant had only 18 of them; now every message is there.
    assert len(catalog) >= 48


def test_an_english_translator_keeps_the_english_editor(client, translator):
    client.force_login(translator)

    response = client.get(reverse("wagtail_localize:javascript_catalog"))

    assert response.status_code == 200
    assert "Publish in " not in response.content.decode()
