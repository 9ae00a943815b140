"""Translation memory: exact matches fill "Translate with ...", fuzzy ones show with a score."""

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from wagtail_localize.models import StringTranslation

from cms.digests.models import DigestPage
from cms.terminology import memory
from cms.terminology.models import MemoryEntry
from cms.translation.policy.rules import translation_into

pytestmark = pytest.mark.django_db


def translate_with(client, translation):
    return client.post(
        reverse("wagtail_localize:machine_translate", args=[translation.pk]),
        {"next": "/admin/"},
    )


def stored(translation, path):
    return StringTranslation.objects.get(
        locale=translation.target_locale,
        context__object_id=translation.source.object_id,
        context__path=path,
    )


def test_a_repeated_sentence_gets_its_published_translation_marked_as_memory(
    client, digest_en, digest_zh, new_digest, start_translation
):
    page = new_digest(digest_en.summary)
    translation = start_translation(page)

    response = translate_with(client, translation)

    assert response.status_code == 302
    summary = stored(translation, "summary")
    assert summary.data == digest_zh.summary
    assert (summary.translation_type, summary.tool_name) == ("machine", "translation memory")
    # The title is in no published translation: the machine (the test dummy, which reverses
    # words) does it, with the glossary's "fabric" -> 網路 substituted before it is sent.
    title = stored(translation, "title")
    assert title.data == "practice in 網路 Rail"
    assert title.tool_name == "Dummy translator"


def test_a_translators_own_text_is_never_overwritten(
    client, digest_en, new_digest, start_translation
):
    page = new_digest(digest_en.summary)
    translation = start_translation(page)
    segment = translation.source.stringsegment_set.get(context__path="summary")
    client.put(
        reverse("wagtail_localize:edit_string_translation", args=[translation.pk, segment.pk]),
        data="value=%E6%88%91%E7%9A%84%E8%AD%AF%E6%96%87",  # 我的譯文
        content_type="application/x-www-form-urlencoded",
    )

    translate_with(client, translation)

    summary = stored(translation, "summary")
    assert (summary.data, summary.translation_type) == ("我的譯文", "manual")


def test_without_a_machine_the_memory_alone_answers(
    client, settings, digest_en, digest_zh, new_digest, start_translation
):
    settings.WAGTAILLOCALIZE_MACHINE_TRANSLATOR = {
        "CLASS": "cms.terminology.translator.MemoryFirstTranslator"
    }
    page = new_digest(digest_en.summary)
    translation = start_translation(page)

    response = translate_with(client, translation)
    assert response.status_code == 302
    assert stored(translation, "summary").data == digest_zh.summary
    assert not StringTranslation.objects.filter(
        context__object_id=translation.source.object_id, context__path="title"
    ).exists()
    told = [str(message) for message in get_messages(response.wsgi_request)]
    assert told[-1] == "Translated 1 of 2 untranslated texts with translation memory."

    # Asked again, the memory knows nothing for the title: the translator is told so.
    response = translate_with(client, translation)
    told = [str(message) for message in get_messages(response.wsgi_request)]
    assert told[-1] == "No translation found with translation memory for the 1 untranslated texts."


def test_a_near_identical_sentence_is_a_fuzzy_match_with_its_score(
    client, digest_en, digest_zh, new_digest, start_translation, zh_locale
):
    near = digest_en.summary.replace("tuning", "tuning collectives")
    matches = memory.fuzzy_matches(zh_locale, near)
    assert matches[0].target == digest_zh.summary
    assert memory.fuzzy_threshold() <= matches[0].score < 100

    page = new_digest(near)
    translation = start_translation(page)
    zh_page = translation.get_target_instance()
    response = client.get(reverse("terminology_page_memory", args=[zh_page.pk]))

    assert response.status_code == 200
    html = response.content.decode()
    assert f"{matches[0].score}%" in html
    assert digest_zh.summary in html
    # Nothing near enough for an unrelated sentence.
    assert memory.fuzzy_matches(zh_locale, "Completely unrelated words about gardening.") == []


def test_the_page_panel_is_for_those_who_may_edit_the_page(
    client, editor, digest_zh, new_digest, start_translation, digest_en
):
    page = new_digest(digest_en.summary)
    zh_page = start_translation(page).get_target_instance()
    client.force_login(editor)  # editors work in English only
    response = client.get(reverse("terminology_page_memory", args=[zh_page.pk]))
    # Wagtail's admin answers a PermissionDenied with a redirect home and a message.
    assert (response.status_code, response.url) == (302, reverse("wagtailadmin_home"))


def test_publishing_keeps_the_memory_current_and_unpublishing_forgets(
    digest_en, digest_zh, zh_locale
):
    assert memory.exact_matches(zh_locale, [digest_en.summary])[digest_en.summary].target == (
        digest_zh.summary
    )
    StringTranslation.objects.filter(
        locale=zh_locale, context__object_id=digest_en.translation_key, context__path="summary"
    ).update(data="新的譯文。")
    page = DigestPage.objects.get(pk=digest_zh.pk)
    page.summary = "新的譯文。"
    page.save_revision().publish()

    match = memory.exact_matches(zh_locale, [digest_en.summary])[digest_en.summary]
    assert match.target == "新的譯文。"
    assert memory.fuzzy_matches(zh_locale, digest_en.summary)[0].target == "新的譯文。"

    page.unpublish()
    assert not MemoryEntry.objects.filter(page=page).exists()
    assert digest_en.summary not in memory.exact_matches(zh_locale, [digest_en.summary])


def test_rebuild_records_every_live_translation_again(digest_en, digest_zh, zh_locale):
    from django.core.management import call_command

    count = MemoryEntry.objects.count()
    MemoryEntry.objects.all().delete()
    memory.memory_changed()
    assert memory.fuzzy_matches(zh_locale, digest_en.summary) == []

    call_command("rebuild_translation_memory", verbosity=0)

    assert MemoryEntry.objects.count() == count
    assert memory.fuzzy_matches(zh_locale, digest_en.summary)[0].target == digest_zh.summary


def test_the_page_panel_reads_the_memory_once_however_many_segments(
    client, digest_en, new_digest, start_translation
):
    """Each segment's fuzzy matches come from one look at the memory, not one query each."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    page = new_digest(digest_en.summary)
    page.body = [("paragraph", f"<p>Paragraph number {n} of a long digest.</p>") for n in range(8)]
    page.save_revision().publish()
    zh_page = start_translation(page).get_target_instance()  # logs the translator in
    assert translation_into(zh_page).source.stringsegment_set.count() >= 10

    with CaptureQueriesContext(connection) as captured:
        response = client.get(reverse("terminology_page_memory", args=[zh_page.pk]))
    assert response.status_code == 200
    memory_reads = [q["sql"] for q in captured if "terminology_memoryentry" in q["sql"]]
    assert len(memory_reads) <= 2  # whether the memory changed, and at most one reload
