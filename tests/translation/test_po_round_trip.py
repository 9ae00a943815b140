"""A page's PO file can be downloaded, translated in any PO editor and uploaded back."""

import polib
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from wagtail_localize.models import StringTranslation, Translation

from cms.digests.models import DigestPage
from cms.translation.workflow.prefill import publish_translation

pytestmark = pytest.mark.django_db


def test_po_download_edit_upload_round_trip(client, translator, digest_en, digest_zh):
    digest_en.summary = "A summary that changed."
    digest_en.save_revision().publish()
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )
    translation.source.update_from_db()
    client.force_login(translator)

    response = client.get(reverse("wagtail_localize:download_pofile", args=[translation.pk]))

    assert response.status_code == 200
    assert response["Content-Type"] == "text/x-gettext-translation"
    po = polib.pofile(response.content.decode())
    by_context = {entry.msgctxt: entry for entry in po if not entry.obsolete}
    assert by_context["summary"].msgid == "A summary that changed."
    assert by_context["summary"].msgstr == ""
    assert by_context["title"].msgstr == digest_zh.title  # kept: its source did not change
    assert [e.msgctxt for e in po.obsolete_entries()] == ["summary"]  # the old text, for reference

    by_context["summary"].msgstr = "一段改過的摘要。"
    upload = SimpleUploadedFile("page.po", str(po).encode(), "text/x-gettext-translation")
    response = client.post(
        reverse("wagtail_localize:upload_pofile", args=[translation.pk]),
        {"file": upload, "next": "/admin/"},
    )

    assert response.status_code == 302
    string = StringTranslation.objects.get(
        locale=digest_zh.locale, translation_of__data="A summary that changed."
    )
    assert (string.data, string.translation_type, string.tool_name) == (
        "一段改過的摘要。",
        "manual",
        "PO File",
    )
    assert string.last_translated_by == translator
    assert translation.get_progress()[0] == translation.get_progress()[1]
    publish_translation(translation, user=translator)
    assert DigestPage.objects.get(pk=digest_zh.pk).summary == "一段改過的摘要。"


def test_po_for_another_translation_is_refused(client, translator, digest_en, digest_zh):
    translations = Translation.objects.filter(target_locale=digest_zh.locale)
    mine = translations.get(source__object_id=digest_en.translation_key)
    other = translations.exclude(pk=mine.pk).first()
    po = other.export_po()
    for entry in po:
        entry.msgstr = "錯誤"
    client.force_login(translator)
    before = set(StringTranslation.objects.values_list("pk", "data"))

    client.post(
        reverse("wagtail_localize:upload_pofile", args=[mine.pk]),
        {"file": SimpleUploadedFile("x.po", str(po).encode()), "next": "/admin/"},
    )

    assert set(StringTranslation.objects.values_list("pk", "data")) == before
