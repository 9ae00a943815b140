"""Prose is translated; what is the same in both languages follows the source on sync."""

import pytest
from wagtail_localize.fields import SynchronizedField, TranslatableField
from wagtail_localize.models import OverridableSegment, Translation

from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper
from cms.translation.workflow.prefill import publish_translation
from cms.translation.workflow.sync import sync_translation_sources

pytestmark = pytest.mark.django_db


def _split(model):
    translatable = {f.field_name for f in model.translatable_fields if type(f) is TranslatableField}
    synchronized = {f.field_name for f in model.translatable_fields if type(f) is SynchronizedField}
    return translatable, synchronized


def test_prose_is_translatable_and_shared_facts_are_synchronized():
    assert _split(DigestPage) == (
        {"title", "seo_title", "search_description", "summary", "body"},
        {"slug", "short_name", "reading_minutes", "paper"},
    )
    assert _split(TopicPage) == (
        {"title", "seo_title", "search_description", "intro", "finish_first", "commentary"},
        {"slug", "finish_first_url"},
    )


def test_synchronized_fields_follow_the_source_and_translations_are_kept(
    digest_en, digest_zh, translator
):
    zh_title, zh_summary = digest_zh.title, digest_zh.specific.summary
    other_paper = Paper.objects.exclude(pk=digest_en.paper_id).first()
    papers_before = Paper.objects.count()

    digest_en.reading_minutes = 42
    digest_en.short_name = "FabricPerf2"
    digest_en.paper = other_paper
    digest_en.save_revision().publish()
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )
    result = sync_translation_sources(source_ids=[translation.source_id])

    assert result.synced == [translation.source_id]
    # The sync is a draft: the live zh-hant page keeps its old facts until its translator publishes.
    assert DigestPage.objects.get(pk=digest_zh.pk).reading_minutes != 42
    publish_translation(translation, user=translator)
    zh = DigestPage.objects.get(pk=digest_zh.pk)
    assert (zh.reading_minutes, zh.short_name, zh.paper_id) == (42, "FabricPerf2", other_paper.pk)
    assert (zh.title, zh.summary) == (zh_title, zh_summary)
    assert zh.live and not zh.has_unpublished_changes
    assert Paper.objects.count() == papers_before  # the paper is shared, never copied
    assert translation.get_progress()[0] == translation.get_progress()[1]
    # Nothing a translator could override in wagtail-localize's editor: no paper, short name,
    # reading time or slug of their own.
    assert not OverridableSegment.objects.filter(source=translation.source).exists()
