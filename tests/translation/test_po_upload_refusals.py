"""The translation editor's "Upload PO file" refuses, with a 400 saying why, what it cannot import.

Posted as a translator straight to the admin URL, as an attacker would: without a file, with a
file that is no PO file, without or with another translation's id header, or too large. Each
answers 400 naming the fault, leaves nothing in the temp directory and changes no translation.
"""

import html
import tempfile

import polib
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from wagtail.users.models import UserProfile
from wagtail_localize.models import StringTranslation, Translation

pytestmark = pytest.mark.django_db

HEADER = "X-WagtailLocalize-TranslationID"


@pytest.fixture
def temp_dir(tmp_path, monkeypatch):
    """The directory tempfile writes to, empty to start with."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


@pytest.fixture
def translation(digest_en, digest_zh):
    return Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )


def translated_po(translation, **metadata) -> bytes:
    po = translation.export_po()
    for entry in po:
        entry.msgstr = "攻擊者的譯文"
    po.metadata.update(metadata)
    return str(po).encode()


def strings() -> set:
    return set(StringTranslation.objects.values_list("pk", "data", "translation_of_id"))


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def post(client, translation, data):
    url = reverse("wagtail_localize:upload_pofile", args=[translation.pk])
    return client.post(url, {**data, "next": "/admin/"})


def without_header(translation) -> bytes:
    po = polib.pofile(translated_po(translation).decode())
    del po.metadata[HEADER]
    return str(po).encode()


@pytest.mark.parametrize(
    ("case", "message"),
    [
        ("no file", "No file was uploaded"),
        ("not a PO file", "This is not a PO file"),
        ("no header", f"The PO file has no {HEADER} header"),
        ("empty header", f"The PO file has no {HEADER} header"),
        ("another translation", f"The PO file's {HEADER} header names another translation"),
        ("unknown translation", f"The PO file's {HEADER} header names another translation"),
    ],
)
def test_an_upload_it_cannot_import_is_refused_with_400(
    client, translator, translation, temp_dir, case, message
):
    other = Translation.objects.filter(target_locale=translation.target_locale).exclude(
        pk=translation.pk
    )[0]
    files = {
        "no file": None,
        "not a PO file": b"\x89PNG\r\n\x1a\n msgid",
        "no header": without_header(translation),
        "empty header": translated_po(translation, **{HEADER: ""}),
        "another translation": translated_po(translation, **{HEADER: str(other.uuid)}),
        "unknown translation": translated_po(
            translation, **{HEADER: "00000000-0000-0000-0000-000000000000"}
        ),
    }
    content = files[case]
    data = {} if content is None else {"file": SimpleUploadedFile("page.po", content)}
    client.force_login(translator)
    before = strings()

    response = post(client, translation, data)

    assert response.status_code == 400
    assert message in page_text(response)
    assert '<a href="/admin/">' in page_text(response)  # back to where the upload came from
    assert list(temp_dir.iterdir()) == []
    assert strings() == before


def test_a_file_over_the_limit_is_refused_naming_the_limit(
    client, translator, translation, temp_dir, settings
):
    content = translated_po(translation, **{HEADER: str(translation.uuid)})
    settings.PO_UPLOAD_MAX_BYTES = 500
    assert len(content) > 500
    client.force_login(translator)
    before = strings()

    response = post(client, translation, {"file": SimpleUploadedFile("page.po", content)})

    assert response.status_code == 400
    assert "over the PO upload limit of 500 bytes" in page_text(response)
    assert list(temp_dir.iterdir()) == []
    assert strings() == before


def test_the_refusal_is_in_the_translators_language(client, translator, translation, temp_dir):
    profile = UserProfile.get_for_user(translator)
    profile.preferred_language = "zh-hant"
    profile.save()
    client.force_login(translator)

    response = post(client, translation, {"file": SimpleUploadedFile("page.po", b"garbage")})

    assert response.status_code == 400
    assert "<p>這不是 PO 檔：" in page_text(response)  # noqa: RUF001


def test_a_good_upload_is_imported_and_leaves_no_temporary_file(
    client, translator, translation, temp_dir
):
    client.force_login(translator)
    content = translated_po(translation)

    response = post(client, translation, {"file": SimpleUploadedFile("page.po", content)})

    assert response.status_code == 302
    assert list(temp_dir.iterdir()) == []
    assert StringTranslation.objects.filter(
        locale=translation.target_locale, data="攻擊者的譯文"
    ).exists()
