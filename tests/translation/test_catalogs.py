"""The UI string catalogs: every project string has a Traditional Chinese translation."""

import re
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

LOCALES = Path(settings.BASE_DIR) / "locales"
ZH_HANT_PO = LOCALES / "zh_Hant" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sdr]|\{\w*\}")


@pytest.fixture(scope="module")
def zh_catalog() -> polib.POFile:
    return polib.pofile(str(ZH_HANT_PO))


def test_both_catalogs_exist():
    assert (LOCALES / "en" / "LC_MESSAGES" / "django.po").is_file()
    assert ZH_HANT_PO.is_file()


def test_every_zh_hant_entry_is_translated_and_not_fuzzy(zh_catalog):
    entries = [entry for entry in zh_catalog if not entry.obsolete]
    assert len(entries) > 100
    empty = [e.msgid for e in entries if not (e.msgstr or all(e.msgstr_plural.values()))]
    empty += [e.msgid for e in entries if e.msgid_plural and not all(e.msgstr_plural.values())]
    fuzzy = [e.msgid for e in entries if "fuzzy" in e.flags]
    assert empty == [], "untranslated zh_Hant entries: run `make messages` and translate them"
    assert fuzzy == [], "fuzzy zh_Hant entries: check the translation and drop the flag"
    assert not zh_catalog.metadata_is_fuzzy


def test_placeholders_survive_translation(zh_catalog):
    for entry in zh_catalog:
        expected = set(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
        translations = entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]
        for text in translations:
            assert set(PLACEHOLDER.findall(text)) == expected, entry.msgid


def test_compiled_catalog_is_used():
    """`make test` compiles the catalogs first (`make compile-messages`)."""
    with translation.override("zh-hant"):
        assert translation.gettext("Research digests") == "研究導讀"
