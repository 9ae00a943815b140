"""The "Retracted and corrected papers" report: every update notice the sync found, and
"Acknowledge" once an editor has dealt with one (checked the digests that recommend the paper).

For those who may edit papers (`papers.change_paper`): they can act on a retraction. The
listing, its filters and its CSV/XLSX export are Wagtail's ReportView; acknowledging is a POST
(CSRF-checked by Django's middleware, as every admin form) that records who and when.
"""

from __future__ import annotations

import datetime

import django_filters
from django.contrib import messages
from django.db.models import F, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseForbidden
from django.middleware.csrf import get_token
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST
from wagtail.admin.filters import WagtailFilterSet
from wagtail.admin.ui.tables import Column, DateColumn, TitleColumn
from wagtail.admin.views.reports import ReportView
from wagtail.permission_policies import ModelPermissionPolicy

from .models import Paper, PaperNotice
from .notice_types import notice_url, type_label

PERMISSION = "papers.change_paper"


def may_review_notices(user) -> bool:
    """Whether `user` sees the report and may acknowledge notices: whoever may edit papers."""
    return user.has_perm(PERMISSION)


def type_choices() -> list[tuple[str, str]]:
    """The types of the notices there are, named as editors read them."""
    types = PaperNotice.objects.order_by("update_type").values_list("update_type", flat=True)
    return [(name, str(type_label(name))) for name in types.distinct()]


class NoticeFilterSet(WagtailFilterSet):
    update_type = django_filters.ChoiceFilter(label=gettext_lazy("Type"), choices=type_choices)
    acknowledged = django_filters.BooleanFilter(
        label=gettext_lazy("Acknowledged"), method="filter_acknowledged"
    )

    class Meta:
        model = PaperNotice
        fields = ["update_type", "acknowledged"]

    def filter_acknowledged(self, queryset: QuerySet, name: str, value: bool) -> QuerySet:
        return queryset.filter(acknowledged_at__isnull=not value)


class NoticeLinkColumn(Column):
    """The notice's DOI, linked to doi.org."""

    cell_template_name = "papers/notices_report/notice_cell.html"

    def get_value(self, instance: PaperNotice) -> str | None:
        return notice_url(instance.notice_doi)


class AcknowledgedColumn(Column):
    """Who acknowledged the notice and when, or the Acknowledge button."""

    cell_template_name = "papers/notices_report/acknowledged_cell.html"

    def get_cell_context_data(self, instance, parent_context):
        context = super().get_cell_context_data(instance, parent_context)
        request = parent_context["request"]
        if instance.acknowledged_at is None:
            context["acknowledge_url"] = reverse("papers_notice_acknowledge", args=[instance.pk])
            context["csrf_token"] = get_token(request)
            # Back to the report as filtered: the rows may have come from the results
            # fragment the filters reload, whose own address is no page to return to.
            query = request.GET.urlencode()
            context["next_url"] = reverse("papers_notices_report") + (f"?{query}" if query else "")
        return context


def paper_edit_url(notice: PaperNotice) -> str:
    return reverse("wagtailsnippets_papers_paper:edit", args=[notice.paper_id])


class NoticesReportView(ReportView):
    """Every paper's update notices, those not yet acknowledged first, newest first."""

    page_title = gettext_lazy("Retracted and corrected papers")
    header_icon = "warning"
    index_url_name = "papers_notices_report"
    index_results_url_name = "papers_notices_report_results"
    filterset_class = NoticeFilterSet
    permission_policy = ModelPermissionPolicy(Paper)
    permission_required = "change"
    paginate_by = 50
    columns = [
        TitleColumn(
            "paper", label=gettext_lazy("Paper"), accessor="paper.title", get_url=paper_edit_url
        ),
        Column(
            "type",
            label=gettext_lazy("Type"),
            accessor=lambda notice: type_label(notice.update_type, notice.label),
        ),
        Column("source", label=gettext_lazy("Source"), accessor="get_source_display"),
        NoticeLinkColumn("notice", label=gettext_lazy("Notice")),
        Column("updated_on", label=gettext_lazy("Date")),
        DateColumn("first_seen_at", label=gettext_lazy("First seen")),
        AcknowledgedColumn("acknowledged", label=gettext_lazy("Acknowledged")),
    ]
    export_headings = {
        "paper.title": gettext_lazy("Paper"),
        "paper.doi": gettext_lazy("Paper DOI"),
        "update_type": gettext_lazy("Type"),
        "label": gettext_lazy("Label"),
        "get_source_display": gettext_lazy("Source"),
        "notice_doi": gettext_lazy("Notice DOI"),
        "updated_on": gettext_lazy("Date"),
        "first_seen_at": gettext_lazy("First seen"),
        "acknowledged_at": gettext_lazy("Acknowledged at"),
        "acknowledged_by": gettext_lazy("Acknowledged by"),
    }
    list_export = list(export_headings)
    custom_field_preprocess = {
        "acknowledged_by": {
            ReportView.FORMAT_CSV: lambda user: user.get_username() if user else "",
            ReportView.FORMAT_XLSX: lambda user: user.get_username() if user else "",
        }
    }

    def get_filename(self) -> str:
        return f"paper-notices-{datetime.date.today():%Y-%m-%d}"

    def get_queryset(self) -> QuerySet:
        return PaperNotice.objects.select_related("paper", "acknowledged_by").order_by(
            F("acknowledged_at").desc(nulls_first=True), "-first_seen_at", "-pk"
        )


@require_POST
def acknowledge_notice(request: HttpRequest, pk: int) -> HttpResponse:
    """Mark one notice as dealt with, by whom and when (a notice acknowledged before keeps its
    first acknowledgement); back to the report, or to a `next` address on this site.

    Anyone else gets a plain 403: raising PermissionDenied in an admin view makes Wagtail
    answer with a redirect to the dashboard, which a script posting here would follow."""
    if not may_review_notices(request.user):
        return HttpResponseForbidden(
            _("You may not acknowledge notices of papers."),
            content_type="text/plain; charset=utf-8",
        )
    notice = get_object_or_404(PaperNotice.objects.select_related("paper"), pk=pk)
    PaperNotice.objects.filter(pk=notice.pk, acknowledged_at__isnull=True).update(
        acknowledged_at=timezone.now(), acknowledged_by=request.user
    )
    messages.success(
        request,
        _("Acknowledged: %(type)s of “%(paper)s”.")
        % {"type": type_label(notice.update_type, notice.label), "paper": notice.paper.title},
    )
    next_url = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(next_url)
    return redirect("papers_notices_report")
