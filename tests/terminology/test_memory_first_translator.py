"""Machine translation with the glossary: DeepL's own glossary, or protected terms otherwise."""

from urllib.parse import parse_qs

import pytest
import responses
from wagtail_localize.strings import StringValue

from cms.terminology.translator import MemoryFirstTranslator

pytestmark = pytest.mark.django_db
DEEPL_URL = "https://api-free.deepl.com/v2/translate"
DEEPL = "cms.translation.machine.translators.TraditionalChineseDeepLTranslator"


@pytest.fixture
def locales(en_locale, zh_locale):
    return en_locale, zh_locale


@responses.activate
def test_deepl_with_a_glossary_gets_the_english_and_the_glossary_id(locales):
    # DeepL's /v2/translate answer (https://developers.deepl.com/docs/api-reference/translate).
    responses.post(
        DEEPL_URL,
        json={"translations": [{"detected_source_language": "EN", "text": "拥塞控制很难。"}]},
    )
    translator = MemoryFirstTranslator(
        {
            "MACHINE": {
                "CLASS": DEEPL,
                "OPTIONS": {"AUTH_KEY": "k:fx", "GLOSSARY_IDS": {("EN", "ZH"): "gls-1"}},
            }
        }
    )
    source = StringValue("Congestion control is hard.")

    result = translator.translate_with_origins(*locales, [source])

    sent = parse_qs(responses.calls[0].request.body)
    assert sent["text"] == ["Congestion control is hard."]
    assert sent["glossary_id"] == ["gls-1"] and sent["target_lang"] == ["ZH-HANT"]
    # The zh-Hant guard still applies to the machine's answer.
    assert result[source][0].data == "擁塞控制很難。"
    assert result[source][1] == "machine"


@responses.activate
def test_deepl_without_a_glossary_gets_the_terms_already_translated(locales):
    responses.post(
        DEEPL_URL,
        json={"translations": [{"detected_source_language": "EN", "text": "壅塞控制很難。"}]},
    )
    translator = MemoryFirstTranslator(
        {"MACHINE": {"CLASS": DEEPL, "OPTIONS": {"AUTH_KEY": "k:fx"}}}
    )

    translator.translate(*locales, [StringValue("Congestion control is hard.")])

    sent = parse_qs(responses.calls[0].request.body)
    assert sent["text"] == ["壅塞控制 is hard."]
    assert "glossary_id" not in sent


def test_without_a_machine_only_the_memory_answers(locales, digest_en, digest_zh):
    translator = MemoryFirstTranslator({})
    known, unknown = StringValue(digest_en.summary), StringValue("Nothing like it was published.")

    result = translator.translate_with_origins(*locales, [known, unknown])

    assert result == {known: (StringValue(digest_zh.summary), "memory")}
    assert translator.can_translate(*locales)
    assert str(translator.display_name) == "translation memory"


@responses.activate
def test_the_glossary_is_pushed_to_deepl_as_tsv(settings, capsys):
    from urllib.parse import parse_qs

    from django.core.management import call_command

    from cms.terminology.models import GlossaryTerm

    settings.DEEPL_AUTH_KEY = "k:fx"
    # DeepL's v2 answer to POST /v2/glossaries (developers.deepl.com, "Manage glossaries").
    responses.post(
        "https://api-free.deepl.com/v2/glossaries",
        status=201,
        json={
            "glossary_id": "def3a26b-3e84-45b3-84ae-0c0aaf3525f7",
            "name": "Research digests EN-ZH",
            "ready": True,
            "source_lang": "en",
            "target_lang": "zh",
            "creation_time": "2026-12-05T08:00:00.000000Z",
            "entry_count": GlossaryTerm.objects.count(),
        },
    )

    call_command("push_glossary_to_deepl")

    sent = parse_qs(responses.calls[0].request.body)
    assert sent["entries_format"] == ["tsv"] and sent["target_lang"] == ["zh"]
    assert "congestion control\t壅塞控制" in sent["entries"][0].split("\n")
    assert len(sent["entries"][0].split("\n")) == GlossaryTerm.objects.count()
    assert "DEEPL_GLOSSARY_ID=def3a26b-3e84-45b3-84ae-0c0aaf3525f7" in capsys.readouterr().out
