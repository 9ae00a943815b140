"""Admin screens: the translation status report, and syncing every out-of-date page at once."""

import datetime

import django_filters
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.middleware.csrf import get_token
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.generic import TemplateView
from wagtail.admin.filters import WagtailFilterSet
from wagtail.admin.ui.tables import Column, DateColumn, StatusTagColumn, TitleColumn
from wagtail.admin.views.reports import ReportView
from wagtail.admin.widgets import HeaderButton
from wagtail.models import Page
from wagtail_localize.models import TranslationSource

from cms.ops.background import start_after_commit
from cms.translation.status.selectors import status_report_pages, translated_pages
from cms.translation.status.statuses import (
    NEEDS_REVIEW,
    OUT_OF_DATE,
    UP_TO_DATE,
    translation_statuses,
)
from cms.translation.tasks import sync_translations_task
from cms.translation.workflow.queue import may_work_the_queue

SYNC_PERMISSION = "wagtail_localize.submit_translation"

STATE_LABELS = {
    OUT_OF_DATE: _("Out of date"),
    "incomplete": _("Incomplete"),
    NEEDS_REVIEW: _("Needs review"),
    "unpublished": _("Not yet published"),
    UP_TO_DATE: _("Up to date"),
}


class SyncPermissionRequiredMixin:
    """For users who may start and sync translations (wagtail-localize's permission)."""

    def dispatch(self, request, *args, **kwargs):
        if not request.user.has_perm(SYNC_PERMISSION):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)


class StatusColumn(StatusTagColumn):
    def get_value(self, instance):
        status = instance.translation_status
        return STATE_LABELS[status.state] if status else _("Not translated")

    def get_primary(self, instance):
        status = instance.translation_status
        return bool(status and status.state == UP_TO_DATE)


class StatusFactColumn(Column):
    """One attribute of the row's TranslationStatus."""

    def get_value(self, instance):
        status = instance.translation_status
        if status is None:
            return None
        return self.accessor(status)


class StatusDateColumn(StatusFactColumn, DateColumn):
    pass


def edit_url_for(user, page: Page) -> str | None:
    """The page's editor, for a user who may open it (an editor may not open zh-hant pages)."""
    if page.untranslated or not page.permissions_for_user(user).can_edit():
        return None
    return reverse("wagtailadmin_pages:edit", args=[page.pk])


class EditLinkTitleColumn(TitleColumn):
    def get_link_url(self, instance, parent_context):
        return instance.edit_url


class ActionsColumn(Column):
    cell_template_name = "translation/report_actions_cell.html"

    def get_cell_context_data(self, instance, parent_context):
        context = super().get_cell_context_data(instance, parent_context)
        status = instance.translation_status
        request = parent_context["request"]
        context["sync_url"] = None
        if status and status.out_of_date and request.user.has_perm(SYNC_PERMISSION):
            context["sync_url"] = "{}?{}".format(
                reverse("wagtail_localize:update_translations", args=[instance.source_id]),
                urlencode({"next": request.get_full_path()}),
            )
        context["edit_url"] = instance.edit_url
        # An English page with no translation yet: the queue's action starts one.
        context["may_start"] = instance.may_start
        if context["may_start"]:
            context["csrf_token"] = get_token(request)
        return context


class TranslationStatusFilterSet(WagtailFilterSet):
    needs_sync = django_filters.BooleanFilter(label=_("Out of date"))

    class Meta:
        model = Page
        fields = ["needs_sync"]


class TranslationStatusReportView(SyncPermissionRequiredMixin, ReportView):
    """Every translated digest and topic: how complete, how current, and who translated it."""

    page_title = _("Translation status")
    header_icon = "wagtail-localize-language"
    index_url_name = "translation_status_report"
    index_results_url_name = "translation_status_report_results"
    filterset_class = TranslationStatusFilterSet
    paginate_by = 50
    # Headings wrap and actions do not (admin.css), so every row's actions fit a laptop's width.
    table_classname = "listing translation-status-listing"
    columns = [
        EditLinkTitleColumn("title", label=_("Translated page"), width="28%"),
        StatusColumn("state", label=_("Status")),
        StatusFactColumn(
            "percent", label=_("Translated"), accessor=lambda s: f"{s.percent_translated}%"
        ),
        StatusFactColumn(
            "machine", label=_("Machine segments"), accessor=lambda s: s.machine_segments
        ),
        StatusFactColumn(
            "revisions",
            label=_("Revisions: source / synced / translated"),
            accessor=lambda s: " / ".join(
                str(rev or "-")
                for rev in (s.source_revision_id, s.synced_revision_id, s.translated_revision_id)
            ),
        ),
        StatusFactColumn(
            "translated_by", label=_("Translated by"), accessor=lambda s: s.translated_by
        ),
        StatusDateColumn(
            "translated_at", label=_("Translated at"), accessor=lambda s: s.translated_at
        ),
        ActionsColumn("actions", label=_("Actions"), classname="translation-actions"),
    ]
    export_headings = {
        "title": _("Translated page"),
        "translation_status.state": _("Status"),
        "translation_status.percent_translated": _("Translated (%)"),
        "translation_status.machine_segments": _("Machine segments"),
        "translation_status.source_revision_id": _("Source revision"),
        "translation_status.synced_revision_id": _("Synced revision"),
        "translation_status.translated_revision_id": _("Translated revision"),
        "translation_status.translated_by": _("Translated by"),
        "translation_status.translated_at": _("Translated at"),
    }
    list_export = list(export_headings)

    def get_filename(self) -> str:
        return f"translation-status-{datetime.date.today():%Y-%m-%d}"

    def get_queryset(self):
        # Workflow states: Wagtail's can_edit() reads them for pages the user has no right on.
        self.queryset = status_report_pages().select_related("locale").prefetch_workflow_states()
        return self.queryset

    def decorate_paginated_queryset(self, object_list):
        pages = list(object_list)
        statuses = translation_statuses(pages)
        sources = dict(
            TranslationSource.objects.filter(
                object_id__in=[page.translation_key for page in pages]
            ).values_list("object_id", "pk")
        )
        user = self.request.user
        may_start = may_work_the_queue(user)  # the same for every row: asked once
        for page in pages:
            page.translation_status = statuses.get(page.pk)
            page.source_id = sources.get(page.translation_key)
            page.edit_url = edit_url_for(user, page)
            page.may_start = page.untranslated and may_start
        return pages

    @property
    def header_buttons(self):
        buttons = [
            HeaderButton(
                _("Sync out-of-date pages"),
                url=reverse("translation_sync_out_of_date"),
                icon_name="resubmit",
            )
        ]
        if may_work_the_queue(self.request.user):
            buttons.append(
                HeaderButton(
                    _("Translator's queue"), url=reverse("translation_queue"), icon_name="list-ul"
                )
            )
        return buttons


class SyncOutOfDateView(SyncPermissionRequiredMixin, TemplateView):
    """Confirm, then sync every out-of-date translation in a background job."""

    template_name = "translation/sync_out_of_date.html"

    def out_of_date_sources(self) -> list[int]:
        keys = translated_pages().filter(needs_sync=True).values("translation_key")
        return list(
            TranslationSource.objects.filter(object_id__in=keys)
            .order_by("pk")
            .values_list("pk", flat=True)
        )

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            {
                "page_title": _("Sync out-of-date pages"),
                "header_icon": "resubmit",
                "count": len(self.out_of_date_sources()),
                "report_url": reverse("translation_status_report"),
            }
        )
        return context

    def post(self, request, *args, **kwargs):
        source_ids = self.out_of_date_sources()
        if source_ids:
            start_after_commit(
                sync_translations_task, source_ids=source_ids, user_id=request.user.pk
            )
        messages.success(
            request,
            ngettext(
                "Syncing %(count)d page in the background.",
                "Syncing %(count)d pages in the background.",
                len(source_ids),
            )
            % {"count": len(source_ids)},
        )
        return redirect("translation_status_report")
