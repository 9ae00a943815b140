"""Machine translation asks DeepL for Traditional Chinese and never stores Simplified text."""

import json
from urllib.parse import parse_qs

import pytest
import responses
from django.test import override_settings
from django.urls import reverse
from wagtail.models import Locale
from wagtail_localize.machine_translators import get_machine_translator
from wagtail_localize.models import StringTranslation, Translation
from wagtail_localize.strings import StringValue
from wagtail_localize.views.edit_translation import apply_machine_translation

from cms.translation.machine import translators as machine_translators
from cms.translation.machine.translators import TraditionalChineseDeepLTranslator

DEEPL_URL = "https://api-free.deepl.com/v2/translate"
DEEPL_SETTINGS = {
    "CLASS": "cms.translation.machine.translators.TraditionalChineseDeepLTranslator",
    "OPTIONS": {"AUTH_KEY": "test-key:fx"},
}


@pytest.fixture
def locales(db):
    return Locale.objects.get(language_code="en"), Locale.objects.get(language_code="zh-hant")


@responses.activate
def test_deepl_is_asked_for_traditional_chinese_and_simplified_is_converted(locales):
    responses.post(
        DEEPL_URL,
        json={"translations": [{"text": "資料中心网络"}, {"text": "延遲"}]},
    )
    translator = TraditionalChineseDeepLTranslator({"AUTH_KEY": "test-key:fx"})
    strings = [StringValue("Datacenter network"), StringValue("Latency")]

    result = translator.translate(*locales, strings)

    sent = parse_qs(responses.calls[0].request.body)
    assert sent["target_lang"] == ["ZH-HANT"]
    assert sent["source_lang"] == ["EN"]
    assert responses.calls[0].request.headers["Authorization"] == "DeepL-Auth-Key test-key:fx"
    assert [result[s].data for s in strings] == ["資料中心網絡", "延遲"]


@pytest.mark.django_db
@responses.activate
@override_settings(WAGTAILLOCALIZE_MACHINE_TRANSLATOR=DEEPL_SETTINGS)
def test_machine_translated_segments_stay_machine_until_a_translator_confirms(
    client, translator, digest_en, zh_locale
):
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=zh_locale
    )
    digest_en.summary = "A new summary."
    digest_en.save_revision().publish()
    translation.source.update_from_db()
    responses.post(DEEPL_URL, json={"translations": [{"text": "新的摘要。"}]})

    client.force_login(translator)
    response = client.post(
        reverse("wagtail_localize:machine_translate", args=[translation.pk]),
        {"next": "/admin/"},
    )

    assert response.status_code == 302
    assert parse_qs(responses.calls[0].request.body)["target_lang"] == ["ZH-HANT"]
    summary = StringTranslation.objects.get(
        locale=zh_locale,
        context__object_id=digest_en.translation_key,
        translation_of__data="A new summary.",
    )
    assert (summary.data, summary.translation_type) == ("新的摘要。", "machine")

    segment = translation.source.stringsegment_set.get(context__path="summary")
    response = client.put(
        reverse("wagtail_localize:edit_string_translation", args=[translation.pk, segment.pk]),
        data="value=%E6%96%B0%E7%9A%84%E6%91%98%E8%A6%81%E3%80%82",
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 200
    summary.refresh_from_db()
    assert (summary.data, summary.translation_type) == ("新的摘要。", "manual")


@pytest.mark.django_db
def test_the_dummy_translators_output_is_stored_as_machine_translation(
    translator, digest_en, zh_locale
):
    """The test settings' dummy translator returns English words reversed: nothing to guard."""
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=zh_locale
    )
    digest_en.summary = "Two words"
    digest_en.save_revision().publish()
    translation.source.update_from_db()

    assert apply_machine_translation(translation.pk, translator, get_machine_translator())
    summary = StringTranslation.objects.get(
        locale=zh_locale,
        context__object_id=digest_en.translation_key,
        translation_of__data="Two words",
    )
    assert (summary.data, summary.translation_type) == ("words Two", "machine")


@pytest.mark.django_db
@responses.activate
@override_settings(WAGTAILLOCALIZE_MACHINE_TRANSLATOR=DEEPL_SETTINGS)
def test_unfixable_simplified_output_is_not_stored(
    translator, digest_en, zh_locale, monkeypatch, caplog
):
    """A string the conversion leaves Simplified is dropped and logged; the others are stored."""
    monkeypatch.setattr(machine_translators, "to_traditional", lambda text: text)
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=zh_locale
    )
    digest_en.title = "Datacenter network"
    digest_en.summary = "Latency"
    digest_en.save_revision().publish()
    translation.source.update_from_db()
    answers = {"Datacenter network": "资料中心网络", "Latency": "延遲"}
    responses.add_callback(responses.POST, DEEPL_URL, callback=deepl_answering(answers))

    assert apply_machine_translation(translation.pk, translator, get_machine_translator())

    stored = dict(
        StringTranslation.objects.filter(
            locale=zh_locale,
            context__object_id=digest_en.translation_key,
            translation_of__data__in=answers,
        ).values_list("translation_of__data", "data")
    )
    assert stored == {"Latency": "延遲"}
    assert "资料中心网络" in caplog.text


def deepl_answering(answers: dict[str, str]):
    """A DeepL stand-in: each sent text's answer (the text itself when it has none), in order."""

    def callback(request):
        texts = parse_qs(request.body)["text"]
        body = {"translations": [{"text": answers.get(text, text)} for text in texts]}
        return 200, {"Content-Type": "application/json"}, json.dumps(body)

    return callback


def test_sync_offers_machine_translation_only_to_those_who_may_apply_it(
    client, editor, translator, digest_en, digest_zh
):
    """An editor may sync a translation but not edit it: no "Use machine translation",
    and ticking it anyway (a hand-made post) still syncs rather than failing the whole sync."""
    from django.contrib.messages import get_messages
    from wagtail_localize.models import TranslationSource

    digest_en.summary = "A changed English summary."
    digest_en.save_revision().publish()
    source = TranslationSource.objects.get(object_id=digest_en.translation_key)
    url = reverse("wagtail_localize:update_translations", args=[source.pk])

    client.force_login(translator)
    assert 'name="use_machine_translation"' in client.get(url).content.decode()

    client.force_login(editor)
    assert 'name="use_machine_translation"' not in client.get(url).content.decode()
    response = client.post(url, {"use_machine_translation": "on"})

    assert response.status_code == 302
    told = [str(message) for message in get_messages(response.wsgi_request)]
    assert not [text for text in told if "permission" in text.lower()], told
    source.refresh_from_db()
    assert source.get_source_instance().summary == "A changed English summary."
    assert source.stringsegment_set.filter(string__data="A changed English summary.").exists()
