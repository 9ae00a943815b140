"""A term translated differently shows in the report, in check_terminology, and on publish."""

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse
from wagtail_localize.models import StringTranslation

from cms.digests.models import DigestPage
from cms.terminology import checks
from tests.translation.test_guard_hook import summary_error

pytestmark = pytest.mark.django_db

# A forbidden variant in Traditional characters (the zh-Hant guard refuses the Mainland 拥塞控制).
VARIANT = "擁塞控制"


@pytest.fixture
def odin_pages(zh_locale):
    en = DigestPage.objects.get(locale__language_code="en", short_name="Odin")
    return en, en.get_translation(zh_locale)


def retranslate_summary(en, zh, zh_locale, old, new):
    """The zh-hant summary with `old` replaced, in the translator's strings and published."""
    text = zh.summary.replace(old, new)
    StringTranslation.objects.filter(
        locale=zh_locale, context__object_id=en.translation_key, context__path="summary"
    ).update(data=text)
    page = DigestPage.objects.get(pk=zh.pk)
    page.summary = text
    page.save_revision().publish()
    return page


def test_the_seed_passes_the_check(capsys):
    call_command("check_terminology")
    assert "Every translated page follows the glossary." in capsys.readouterr().out


def test_a_term_translated_differently_is_reported_everywhere(
    client, translator, odin_pages, zh_locale
):
    en, zh = odin_pages
    assert "壅塞控制" in zh.summary
    retranslate_summary(en, zh, zh_locale, "壅塞控制", VARIANT)

    found = {(v.kind, v.term.english, v.found) for v in checks.check_site() if v.page_id == zh.pk}
    assert (checks.MISSING, "congestion control", "") in found
    assert (checks.FORBIDDEN, "congestion control", VARIANT) in found
    assert all(v.page_id == zh.pk for v in checks.check_site())

    with pytest.raises(CommandError) as raised:
        call_command("check_terminology")
    assert raised.value.returncode == 1

    client.force_login(translator)
    html = client.get(reverse("terminology_report")).content.decode()
    assert zh.title in html and VARIANT in html and "壅塞控制" in html


def test_a_case_sensitive_term_matches_only_its_capitalisation(odin_pages, zh_locale):
    from cms.terminology.models import GlossaryTerm

    GlossaryTerm.objects.create(english="Odin", chinese="奧丁", case_sensitive=True)
    _en, zh = odin_pages
    found = {v.term.english for v in checks.check_page(zh)}
    assert "Odin" in found  # the title and summary say "Odin"; the translation keeps "Odin"
    GlossaryTerm.objects.filter(english="Odin").update(english="odin")
    assert "odin" not in {v.term.english for v in checks.check_page(zh)}


def test_publishing_with_a_violation_warns_and_still_publishes(
    client, translator, odin_pages, zh_locale, django_capture_on_commit_callbacks
):
    en, zh = odin_pages
    StringTranslation.objects.filter(
        locale=zh_locale, context__object_id=en.translation_key, context__path="summary"
    ).update(data=zh.summary.replace("壅塞控制", "擁擠控制"))
    client.force_login(translator)
    url = reverse("wagtailadmin_pages:edit", args=[zh.pk])

    editor_page = client.get(url).content.decode()
    assert "Glossary: “congestion control” should be translated as “壅塞控制”" in editor_page
    assert reverse("terminology_page_memory", args=[zh.pk]) in editor_page

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"action": "publish"}, follow=True)

    assert "1 glossary warning; publishing is not blocked." in response.content.decode()
    assert "擁擠控制" in DigestPage.objects.get(pk=zh.pk).summary


def test_only_glossary_keepers_see_the_report(client, django_user_model):
    nobody = django_user_model.objects.create_user("nobody", password="pw")
    client.force_login(nobody)
    response = client.get(reverse("terminology_report"))
    assert response.status_code in (302, 403)
    assert "congestion control" not in response.content.decode()


def test_the_report_and_the_command_agree_on_the_seed_and_after_a_change(odin_pages, zh_locale):
    """The report reads the memory's published segments; the command, the live pages."""
    assert checks.check_memory() == [] == checks.check_site()
    en, zh = odin_pages
    retranslate_summary(en, zh, zh_locale, "壅塞控制", VARIANT)

    def keys(violations):
        return sorted((v.page_id, v.kind, v.term.english, v.found) for v in violations)

    assert keys(checks.check_memory()) == keys(checks.check_site()) != []


def test_simplified_variants_are_said_once_by_the_guard_with_the_glossary_term(
    client, translator, zh_locale
):
    """Issue 46.5: the guard suggested 網絡 for 网络 and the glossary, on reopening the editor,
    warned again that 网络 is forbidden. Now the guard suggests the glossary's 網路 and the
    glossary stays silent about what the guard says; a Traditional variant is still its own."""
    en = DigestPage.objects.get(locale__language_code="en", short_name="DCP")
    zh = en.get_translation(zh_locale)
    assert "無損網路" in zh.summary  # "lossless fabric": lossless -> 無損, fabric -> 網路
    strings = StringTranslation.objects.filter(
        locale=zh_locale, context__object_id=en.translation_key, context__path="summary"
    )
    strings.update(data=zh.summary.replace("無損網路", "无损网络"))
    client.force_login(translator)
    url = reverse("wagtailadmin_pages:edit", args=[zh.pk])

    response = client.get(url)

    assert "Simplified Chinese 无损网络: write 無損網路 instead." in summary_error(response)
    page_text = response.content.decode().split("js-translation-editor")[0]
    assert "Glossary:" not in page_text and "网" not in page_text  # said on the segment only
    translation = checks.Translation.objects.get(
        source__object_id=en.translation_key, target_locale=zh_locale
    )
    assert checks.check_translation(translation, zh) == []

    # 網絡 has no Simplified character: the guard says nothing, the glossary does.
    strings.update(data=zh.summary.replace("無損網路", "無損網絡"))
    editor_page = client.get(url).content.decode()
    assert "Glossary: “網絡” is a forbidden variant; use “網路” (network)" in editor_page
