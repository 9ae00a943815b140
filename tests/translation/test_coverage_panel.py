"""The dashboard's translation coverage: per topic, the translator's queue's own answer."""

from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from wagtail.models import Page

from cms.digests.models import DigestPage, TopicPage
from cms.translation.languages import LANGUAGE_ROOT_DEPTH
from cms.translation.views.coverage import TranslationCoveragePanel, coverage_languages
from cms.translation.workflow.coverage import (
    BEING_TRANSLATED,
    GROUP_OF_STATE,
    OUT_OF_DATE_GROUP,
    UNTRANSLATED,
    UP_TO_DATE,
    coverage_by_topic,
)
from cms.translation.workflow.queue import open_translation, translation_queue
from tests.support.dashboard import (
    chart_links,
    chart_table,
    dashboard_html,
    panel_ids,
    panel_queries,
)
from tests.support.factories import PUBLISHED, DigestPageFactory, TopicPageFactory

pytestmark = pytest.mark.django_db

CHART = "translation-coverage-zh-hant"
COLUMNS = {
    UP_TO_DATE: "Up to date",
    OUT_OF_DATE_GROUP: "Out of date",
    BEING_TRANSLATED: "Being translated",
    UNTRANSLATED: "Untranslated",
}


def topic_of(page: Page) -> TopicPage:
    return Page.objects.get(path=page.path[: Page.steplen * (LANGUAGE_ROOT_DEPTH + 1)]).specific


def expected_coverage() -> dict[str, dict[str, int]]:
    """Per topic title, worked out page by page from the queue and the live English pages."""
    live = Page.objects.filter(locale__language_code="en", depth__gt=LANGUAGE_ROOT_DEPTH, live=True)
    totals = Counter(topic_of(page).title for page in live)
    groups = {title: Counter() for title in totals}
    for page in translation_queue():
        groups[topic_of(page).title][GROUP_OF_STATE[page.queue_state]] += 1
    return {
        title: {
            **{group: groups[title][group] for group in COLUMNS if group != UP_TO_DATE},
            UP_TO_DATE: totals[title] - sum(groups[title].values()),
        }
        for title in totals
    }


def shown(html: str) -> dict[str, dict[str, int]]:
    return {
        title: {group: int(cells[column]) for group, column in COLUMNS.items()}
        for title, cells in chart_table(html, CHART).items()
    }


def digest(short_name: str) -> DigestPage:
    return DigestPage.objects.get(locale__language_code="en", short_name=short_name)


def test_numbers_match_the_queue_after_writes_and_a_sync(client, translator, editor):
    before = shown(dashboard_html(client, translator))
    assert before == expected_coverage()
    fabric = digest("FabricPerf")
    topic = fabric.get_parent().specific
    # Writes: a new English digest nobody translates, one a translator starts (a draft), and a
    # change to a translated digest, which the translator then syncs (the translation sync).
    DigestPageFactory(parent=topic, title="Untouched", slug="untouched", revision=PUBLISHED)
    started = DigestPageFactory(parent=topic, title="Started", slug="started", revision=PUBLISHED)
    open_translation(page=started, user=translator)
    fabric.summary = "Changed in English."
    fabric.save_revision().publish()
    open_translation(page=DigestPage.objects.get(pk=fabric.pk), user=translator)

    after = shown(dashboard_html(client, translator))
    assert after == expected_coverage()
    title = topic.title
    assert after[title][UNTRANSLATED] == before[title][UNTRANSLATED] + 1
    assert after[title][BEING_TRANSLATED] == before[title][BEING_TRANSLATED] + 1
    # Synced but not yet published: still out of date for readers (the queue's rule).
    assert after[title][OUT_OF_DATE_GROUP] == before[title][OUT_OF_DATE_GROUP] + 1
    assert after[title][UP_TO_DATE] == before[title][UP_TO_DATE] - 1
    assert {t: n for t, n in after.items() if t != title} == {
        t: n for t, n in before.items() if t != title
    }
    # An editor sees the same numbers.
    assert shown(dashboard_html(client, editor)) == after


def test_the_numbers_lead_into_the_queue_filtered_to_them(client, translator):
    topic = digest("FabricPerf").get_parent().specific
    DigestPageFactory(parent=topic, title="Waiting", slug="waiting", revision=PUBLISHED)
    html = dashboard_html(client, translator)
    links = chart_links(html, CHART)[topic.title]
    assert len(links) == 1 and "coverage=untranslated" in links[0]
    response = client.get(links[0])
    assert response.status_code == 200
    listed = [page.title for page in response.context["object_list"]]
    assert listed == ["Waiting"]


def test_editors_see_numbers_without_queue_links(client, editor):
    topic = digest("FabricPerf").get_parent().specific
    DigestPageFactory(parent=topic, title="Waiting", slug="waiting", revision=PUBLISHED)
    html = dashboard_html(client, editor)
    assert "translation-coverage" in panel_ids(html)
    assert chart_links(html, CHART)[topic.title] == []
    assert "/admin/reports/translation-queue/" not in html


def test_only_translators_editors_and_admins(client, db):
    nobody = get_user_model().objects.create_user("nobody", password="pw")
    assert coverage_languages(nobody) == []
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw")
    assert "translation-coverage" in panel_ids(dashboard_html(client, admin))


def test_a_constant_number_of_queries(translator):
    locales = coverage_languages(translator)
    small = panel_queries(TranslationCoveragePanel(locales), translator)
    index = digest("FabricPerf").get_parent().get_parent()
    topic = TopicPageFactory(parent=index, title="More", slug="more", revision=PUBLISHED)
    for number in range(12):
        DigestPageFactory(parent=topic, title=f"More {number}", revision=PUBLISHED)
    assert len(coverage_by_topic()) == TopicPage.objects.filter(locale__language_code="en").count()
    assert panel_queries(TranslationCoveragePanel(locales), translator) == small
