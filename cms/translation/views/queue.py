"""Admin screens of the translator's queue: the report, and its one action per page."""

import django_filters
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _
from django.views import View
from wagtail.admin.filters import WagtailFilterSet
from wagtail.admin.ui.tables import Column, DateColumn, StatusTagColumn, TitleColumn
from wagtail.admin.utils import get_valid_next_url_from_request
from wagtail.admin.views.reports import ReportView
from wagtail.admin.widgets import HeaderButton
from wagtail.models import Page

from cms.translation.workflow.coverage import (
    COVERAGE_LABELS,
    QUEUE_STATES,
    source_topics,
)
from cms.translation.workflow.queue import (
    QUEUE_LABELS,
    CannotTranslate,
    may_work_the_queue,
    open_translation,
    translation_queue,
)


def require_queue_access(user) -> None:
    if not may_work_the_queue(user):
        raise PermissionDenied


class OpenTranslationColumn(Column):
    """The row's one action: a POST that opens the translation editor (creating the draft)."""

    cell_template_name = "translation/queue_action_cell.html"

    def get_cell_context_data(self, instance, parent_context):
        context = super().get_cell_context_data(instance, parent_context)
        context["csrf_token"] = get_token(parent_context["request"])
        return context


class TranslationQueueFilterSet(WagtailFilterSet):
    """A topic's pages, and one group of states: where the dashboard's coverage chart leads."""

    topic = django_filters.ModelChoiceFilter(
        label=_("Topic"), queryset=lambda request: source_topics(), method="in_topic"
    )
    coverage = django_filters.ChoiceFilter(
        label=_("Status"),
        choices=[(group, COVERAGE_LABELS[group]) for group in QUEUE_STATES],
        method="in_group",
    )

    class Meta:
        model = Page
        fields = []

    def in_topic(self, queryset, name, topic):
        return queryset.filter(path__startswith=topic.path) if topic else queryset

    def in_group(self, queryset, name, group):
        return queryset.filter(queue_state__in=QUEUE_STATES[group]) if group else queryset


class TranslationQueueView(ReportView):
    """English topics and digests waiting for a translator, newest change first."""

    page_title = _("Translator's queue")
    header_icon = "wagtail-localize-language"
    index_url_name = "translation_queue"
    index_results_url_name = "translation_queue_results"
    filterset_class = TranslationQueueFilterSet
    paginate_by = 50
    columns = [
        TitleColumn("title", label=_("English page"), width="30%"),
        Column(
            "type",
            label=_("Type"),
            accessor=lambda page: capfirst(page.specific_class.get_verbose_name()),
        ),
        StatusTagColumn(
            "queue_state", label=_("Status"), accessor=lambda page: QUEUE_LABELS[page.queue_state]
        ),
        Column(
            "translation_title",
            label=_("Chinese page"),
            accessor=lambda page: page.translation_title or "—",
        ),
        DateColumn("last_published_at", label=_("Changed")),
        OpenTranslationColumn("action", label=_("Action")),
    ]
    export_headings = {
        "title": _("English page"),
        "queue_state": _("Status"),
        "translation_title": _("Chinese page"),
        "last_published_at": _("Changed"),
    }
    list_export = list(export_headings)

    def dispatch(self, request, *args, **kwargs):
        require_queue_access(request.user)
        return super().dispatch(request, *args, **kwargs)

    def get_queryset(self):
        return translation_queue()

    @property
    def header_buttons(self):
        return [
            HeaderButton(
                _("Translation status"),
                url=reverse("translation_status_report"),
                icon_name="list-ul",
            )
        ]


class OpenTranslationView(View):
    """Start or update a page's translation as a draft, then open wagtail-localize's editor.

    A translator needs no right on the English page: the draft is created for them through
    wagtail-localize's records, in the language they may edit. POST only (Django's CSRF check
    applies), and nothing is published.
    """

    http_method_names = ["post"]

    def post(self, request, page_id: int):
        require_queue_access(request.user)
        page = get_object_or_404(Page, pk=page_id)
        try:
            opened = open_translation(page=page, user=request.user)
        except CannotTranslate as error:
            messages.error(request, str(error))
            return redirect(get_valid_next_url_from_request(request) or "translation_queue")
        if opened.created:
            messages.success(
                request,
                _("Draft translation of '%(title)s' created: nothing is live until published.")
                % {"title": page.title},
            )
        elif opened.synced:
            messages.success(
                request,
                _("'%(title)s' synced with its English page; the live translation is unchanged.")
                % {"title": page.title},
            )
        return redirect("wagtailadmin_pages:edit", opened.page.pk)
