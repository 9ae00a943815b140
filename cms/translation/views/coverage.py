"""The dashboard's translation coverage: per topic, how many pages are up to date, out of date,
being translated or untranslated, in each language the user may translate into.

For translators and editors: those who may start and sync translations (wagtail-localize's
permission, which both roles hold) into a language the policy lets them translate into. Its
numbers link into the translator's queue, filtered to the topic and the group, for those who
may work the queue (translators); editors get the translation status report instead.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _
from wagtail.models import Locale

from cms.ops.charts import BarChart, ChartPanel, ChartRow, PanelLink, Series
from cms.translation.languages import SOURCE_LANGUAGE
from cms.translation.policy import rules as policy
from cms.translation.views.report import SYNC_PERMISSION
from cms.translation.workflow.coverage import (
    BEING_TRANSLATED,
    COVERAGE_GROUPS,
    COVERAGE_LABELS,
    OUT_OF_DATE_GROUP,
    QUEUE_STATES,
    UNTRANSLATED,
    UP_TO_DATE,
    coverage_by_topic,
)
from cms.translation.workflow.kept import kept
from cms.translation.workflow.queue import may_work_the_queue

TONES = {
    UP_TO_DATE: "positive",
    OUT_OF_DATE_GROUP: "warning",
    BEING_TRANSLATED: "info",
    UNTRANSLATED: "critical",
}


def coverage_languages(user) -> list[Locale]:
    """The languages whose coverage `user` sees: those the policy lets them translate into,
    for users who may start translations at all; none for others (one query, or none)."""
    if not user.has_perm(SYNC_PERMISSION):
        return []
    locales = list(Locale.objects.order_by("language_code"))
    source = next((locale for locale in locales if locale.language_code == SOURCE_LANGUAGE), None)
    if source is None:
        return []
    return [
        locale
        for locale in locales
        if locale.pk != source.pk and policy.may_translate(user, source, locale)
    ]


def queue_url(**filters: Any) -> str:
    return f"{reverse('translation_queue')}?{urlencode(filters)}"


def coverage_chart(locale: Locale, *, link_queue: bool) -> BarChart:
    """One language's chart: a row per topic that has live pages, a series per group."""
    rows = []
    language = locale.language_code
    for topic in kept(f"coverage:{language}", lambda: coverage_by_topic(language=language)):
        if not topic.total:
            continue
        urls = [
            queue_url(topic=topic.topic_id, coverage=group)
            if link_queue and group in QUEUE_STATES and topic.counts[group]
            else ""
            for group in COVERAGE_GROUPS
        ]
        rows.append(
            ChartRow(
                label=topic.title,
                values=[topic.counts[group] for group in COVERAGE_GROUPS],
                url=queue_url(topic=topic.topic_id) if link_queue else "",
                urls=urls,
            )
        )
    return BarChart(
        id=f"translation-coverage-{locale.language_code}",
        title=_("Pages per topic, in %(language)s") % {"language": locale.get_display_name()},
        row_heading=_("Topic"),
        series=[Series(COVERAGE_LABELS[group], TONES[group]) for group in COVERAGE_GROUPS],
        rows=rows,
        show_total=True,
        total_heading=_("Pages"),
        empty_text=_("No page is published yet."),
    )


class TranslationCoveragePanel(ChartPanel):
    name = "translation_coverage"
    heading = _("Translation coverage")
    order = 95  # beside the translator's own list (the pages waiting panel, 90)

    def __init__(self, locales: list[Locale]):
        self.locales = locales

    def panel_context(self, request) -> Mapping[str, Any]:
        link_queue = may_work_the_queue(request.user)
        links = []
        if link_queue:
            links.append(PanelLink(_("Translator's queue"), reverse("translation_queue")))
        links.append(PanelLink(_("All translation statuses"), reverse("translation_status_report")))
        return {
            "intro": _(
                "Published pages of each topic, the topic page included, by where their "
                "translation stands."
            ),
            "charts": [coverage_chart(locale, link_queue=link_queue) for locale in self.locales],
            "links": links,
        }
