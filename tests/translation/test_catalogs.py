"""The UI string catalogs: every project string has a Traditional Chinese translation."""

import re
from pathlib import Path

import polib
import pytest
import wagtail
import wagtail_localize
from django.conf import settings
from django.utils import translation

from cms.translation.guard.zh_hant import find_simplified

LOCALES = Path(settings.BASE_DIR) / "locales"
ZH_HANT_PO = LOCALES / "zh_Hant" / "LC_MESSAGES" / "django.po"
PLACEHOLDER = re.compile(r"%\(\w+\)[sdr]|%[sdr]|\{\w*\}")


def assert_translated_in_traditional(catalog: polib.POFile) -> None:
    """Every entry translated, not fuzzy, with its placeholders, and in Traditional characters."""
    for entry in catalog:
        assert "fuzzy" not in entry.flags, entry.msgid
        texts = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        expected = set(PLACEHOLDER.findall(entry.msgid_plural or entry.msgid))
        for text in texts:
            assert text.strip(), f"untranslated: {entry.msgid}"
            assert set(PLACEHOLDER.findall(text)) == expected, entry.msgid
            assert find_simplified(text) == [], entry.msgid


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


# wagtail-localize's messages in zh-Hant (locales/vendor/): complete, Traditional, and in step
# with the installed wagtail-localize (docs/development.md, "UI strings", says how to update them).
VENDOR = LOCALES / "vendor" / "zh_Hant" / "LC_MESSAGES"
VENDOR_DOMAINS = ["django", "djangojs"]


def vendor_catalog(domain: str) -> polib.POFile:
    return polib.pofile(str(VENDOR / f"{domain}.po"))


def package_msgids(domain: str) -> set[str]:
    """Every msgid of the installed wagtail-localize, from its English catalog."""
    po = Path(wagtail_localize.__file__).parent / "locale" / "en" / "LC_MESSAGES" / f"{domain}.po"
    return {entry.msgid for entry in polib.pofile(str(po)) if not entry.obsolete}


def test_vendor_catalogs_come_after_the_projects_own():
    assert [Path(p) for p in settings.LOCALE_PATHS] == [
        LOCALES,
        LOCALES / "vendor",
        LOCALES / "wagtail",
    ]


# Half-width , : ; ( ) ? ! touching a Chinese character, in any zh_Hant catalog we ship.
CHINESE = "[\u3400-\u9fff\uf900-\ufaff]"
HALF_WIDTH_BY_CHINESE = re.compile(f"{CHINESE}[,:;()?!]|[,:;()?!]{CHINESE}")
ZH_HANT_CATALOGS = [
    ZH_HANT_PO,
    *sorted((LOCALES / "vendor" / "zh_Hant" / "LC_MESSAGES").glob("*.po")),
    *sorted((LOCALES / "wagtail" / "zh_Hant" / "LC_MESSAGES").glob("*.po")),
]


@pytest.mark.parametrize("path", ZH_HANT_CATALOGS, ids=lambda p: str(p.relative_to(LOCALES)))
def test_chinese_text_uses_full_width_punctuation(path):
    half_width = [
        text
        for entry in polib.pofile(str(path))
        for text in (entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr])
        if HALF_WIDTH_BY_CHINESE.search(text)
    ]
    assert half_width == []


# Wagtail's messages the project translates (locales/wagtail/): each one the installed Wagtail
# has, translated, Traditional, keeping its placeholders.
WAGTAIL_CATALOG = LOCALES / "wagtail" / "zh_Hant" / "LC_MESSAGES"


def wagtail_msgids(domain: str) -> set[str]:
    root = Path(wagtail.__file__).parent
    return {
        entry.msgid
        for po in root.glob(f"**/locale/en/LC_MESSAGES/{domain}.po")
        for entry in polib.pofile(str(po))
        if not entry.obsolete
    }


@pytest.mark.parametrize("domain", VENDOR_DOMAINS)
def test_wagtail_catalog_translates_only_wagtails_messages(domain):
    catalog = polib.pofile(str(WAGTAIL_CATALOG / f"{domain}.po"))
    assert catalog.metadata["Plural-Forms"] == "nplurals=1; plural=0;"
    ours = {entry.msgid for entry in catalog if not entry.obsolete}
    assert sorted(ours - wagtail_msgids(domain)) == [], "msgids Wagtail no longer has"
    assert_translated_in_traditional(catalog)
    for entry in catalog:
        for text in entry.msgstr_plural.values() if entry.msgid_plural else [entry.msgstr]:
            assert "搜索" not in text, "Taiwan usage is 搜尋"


def test_just_now_is_said_in_chinese():
    """Wagtail's timesince_simple compares Django's "0 分" with its own "0 minutes"."""
    from django.utils import timezone
    from wagtail.admin.templatetags.wagtailadmin_tags import timesince_simple

    with translation.override("zh-hant"):
        assert timesince_simple(timezone.now()) == "剛剛"


@pytest.mark.parametrize("domain", VENDOR_DOMAINS)
def test_vendor_catalog_has_every_wagtail_localize_message(domain):
    ours = {entry.msgid for entry in vendor_catalog(domain) if not entry.obsolete}
    assert sorted(package_msgids(domain) - ours) == [], "new wagtail-localize msgids to translate"
    assert sorted(ours - package_msgids(domain)) == [], "msgids wagtail-localize no longer has"


@pytest.mark.parametrize("domain", VENDOR_DOMAINS)
def test_vendor_entries_are_translated_traditional_and_keep_placeholders(domain):
    catalog = vendor_catalog(domain)
    assert catalog.metadata["Plural-Forms"] == "nplurals=1; plural=0;"
    assert not catalog.metadata_is_fuzzy
    assert_translated_in_traditional(catalog)
