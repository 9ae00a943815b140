"""The translation panels keep the queue's answers between visits (cms.translation.workflow.kept)
until a write, or a saved draft, changes what the queue reads."""

import pytest
from django.test import RequestFactory
from wagtail_localize.models import StringTranslation

from cms.digests.models import DigestPage
from cms.translation.views.coverage import TranslationCoveragePanel, coverage_languages
from cms.translation.workflow.coverage import COVERAGE_GROUPS, UNTRANSLATED
from cms.translation.workflow.kept import kept
from tests.support.dashboard import panel_queries
from tests.support.factories import PUBLISHED, DigestPageFactory

pytestmark = pytest.mark.django_db


def untranslated(topic_title: str, user) -> int:
    request = RequestFactory().get("/admin/")
    request.user = user
    panel = TranslationCoveragePanel(coverage_languages(user))
    (chart,) = panel.get_context_data({"request": request})["charts"]
    (row,) = [row for row in chart.rows if row.label == topic_title]
    return row.values[COVERAGE_GROUPS.index(UNTRANSLATED)]


def counting():
    calls = []

    def compute():
        calls.append(1)
        return len(calls)

    return compute


def test_a_second_visit_reads_the_kept_answer(translator, settings):
    settings.API_RESPONSE_CACHE_SECONDS = 600
    panel = TranslationCoveragePanel(coverage_languages(translator))
    first = panel_queries(panel, translator)
    assert panel_queries(panel, translator) < first


def test_a_publish_is_counted_at_once(translator, settings, django_capture_on_commit_callbacks):
    settings.API_RESPONSE_CACHE_SECONDS = 600
    topic = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf").get_parent()
    before = untranslated(topic.title, translator)
    with django_capture_on_commit_callbacks(execute=True):
        DigestPageFactory(parent=topic, title="New", slug="new", revision=PUBLISHED)
    assert untranslated(topic.title, translator) == before + 1


def test_a_translated_string_bumps_the_version(settings, django_capture_on_commit_callbacks):
    """A string saved in the translation editor writes no revision: the content version, which
    cms.apicache bumps for wagtail-localize's rows, is what changes."""
    settings.API_RESPONSE_CACHE_SECONDS = 600
    compute = counting()
    assert kept("test", compute) == 1
    assert kept("test", compute) == 1  # kept
    string = StringTranslation.objects.first()
    with django_capture_on_commit_callbacks(execute=True):
        string.save()
    assert kept("test", compute) == 2


def test_a_saved_draft_changes_the_key(settings):
    settings.API_RESPONSE_CACHE_SECONDS = 600
    compute = counting()
    assert kept("draft", compute) == 1
    page = DigestPage.objects.get(locale__language_code="zh-hant", short_name="FabricPerf")
    page.save_revision()  # no commit, so no version bump: the newest revision changes the key
    assert kept("draft", compute) == 2


def test_nothing_is_kept_when_responses_are_not(settings):
    settings.API_RESPONSE_CACHE_SECONDS = 0
    compute = counting()
    kept("off", compute)
    assert kept("off", compute) == 2
