"""The sync in Wagtail's admin: run history, per-paper state and provenance, discoveries.

Listings are Wagtail ReportViews (filters, pagination, spreadsheet export come with them); the
detail screens use Wagtail's generic base template, so they look like the rest of the admin.
"""

from __future__ import annotations

from functools import partial

import django_filters
from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django.views.generic import TemplateView
from wagtail.admin.auth import permission_denied
from wagtail.admin.filters import WagtailFilterSet
from wagtail.admin.ui.tables import Column, TitleColumn
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.views.reports import ReportView
from wagtail.admin.widgets import HeaderButton
from wagtail.permissions import policy_registry

from cms.ops.background import start_after_commit, worker_configured
from cms.papers.locks import LOCKABLE_FIELDS
from cms.papers.models import Paper

from . import display, owed, runs
from .models import DiscoveryCandidate, PaperChange, PaperSyncState, SyncRun
from .tasks import sync_batch


def may_sync_papers(user) -> bool:
    """The sync's screens, menu, Sync buttons and "Sync now" are for those who may edit papers
    (editors, not translators). Every one of them asks here, as Paper's snippet editor does:
    Wagtail's permission policy for Paper, reading the model permissions the roles grant."""
    return policy_registry.get_by_type(Paper).user_has_permission(user, "change")


class EditorOnlyMixin:
    """Sync listings are for those who may sync papers; others are sent home, as Wagtail does."""

    def dispatch(self, request, *args, **kwargs):
        if not may_sync_papers(request.user):
            return permission_denied(request)
        return super().dispatch(request, *args, **kwargs)


class SyncDetailView(WagtailAdminTemplateMixin, TemplateView):
    """One `model` row, for those who may edit papers. Its breadcrumbs read Home > Metadata
    sync: <listing> > <this screen's title>: Wagtail's template mixin shows only "Home" unless a
    view appends its own trail (the listings, ReportViews, append their title).

    While a sync of the row runs, the screen follows it (sync/static/sync/js/live.js): the same
    view `as_view(live=True)`, at `live_url_name`, answers with the screen's changing part
    (`live_template`, from the same context, so it reads as the screen does) and whether the
    sync still runs, as JSON."""

    model: type
    listing_url_name = ""
    listing_label = ""
    live = False
    live_template = ""
    live_url_name = ""

    def is_running(self) -> bool:
        raise NotImplementedError

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            running=self.is_running(),
            live_url=reverse(self.live_url_name, args=[self.object.pk]),
            **kwargs,
        )

    def render_to_response(self, context, **response_kwargs):
        if not self.live:
            return super().render_to_response(context, **response_kwargs)
        html = render_to_string(self.live_template, context, request=self.request)
        return JsonResponse({"running": context["running"], "html": html})

    def dispatch(self, request, *args, **kwargs):
        if not may_sync_papers(request.user):
            return permission_denied(request)
        self.object = get_object_or_404(self.model, pk=kwargs["pk"])
        return super().dispatch(request, *args, **kwargs)

    def get_breadcrumbs_items(self) -> list[dict]:
        return [
            *super().get_breadcrumbs_items(),
            {
                "url": reverse(self.listing_url_name),
                "label": _("Metadata sync: %(listing)s") % {"listing": self.listing_label},
            },
            {"url": "", "label": self.get_page_title()},
        ]


class WhenColumn(Column):
    """A date in the listings as on the detail screens, in the one format of the sync's screens
    (sync/display.py), where Wagtail's DateColumn says "3 minutes ago" beside them."""

    def get_value(self, instance):
        return display.readable_datetime(super().get_value(instance))


class SyncRunFilterSet(WagtailFilterSet):
    kind = django_filters.ChoiceFilter(label=_("Kind"), choices=SyncRun.Kind.choices)
    status = django_filters.ChoiceFilter(label=_("Status"), choices=SyncRun.Status.choices)

    class Meta:
        model = SyncRun
        fields = ["kind", "status"]


def sync_all_button() -> HeaderButton:
    """ "Sync all papers", on the Papers listing and the sync runs' (sync/sync_all_views.py)."""
    return HeaderButton(
        _("Sync all papers"), url=reverse("sync_all"), icon_name="resubmit", priority=20
    )


class SyncRunReportView(EditorOnlyMixin, ReportView):
    page_title = _("Sync runs")
    header_icon = "resubmit"
    index_url_name = "sync_runs"
    index_results_url_name = "sync_runs_results"
    filterset_class = SyncRunFilterSet
    columns = [
        TitleColumn("__str__", label=_("Run"), url_name="sync_run"),
        Column("trigger", label=_("Started by")),
        WhenColumn("started_at", label=_("Started")),
        WhenColumn("finished_at", label=_("Finished")),
        Column("papers_total", label=_("Papers")),
        Column("papers_matched", label=_("Papers matched")),
        Column("papers_changed", label=_("Papers changed")),
        Column("fields_changed", label=_("Fields changed")),
        Column("error_count", label=_("Errors")),
    ]
    list_export = [
        "pk",
        "kind",
        "status",
        "trigger",
        "started_at",
        "finished_at",
        "papers_total",
        "papers_matched",
        "papers_changed",
        "fields_changed",
    ]

    def get_queryset(self):
        return SyncRun.objects.all()

    @cached_property
    def header_buttons(self) -> list:
        return [sync_all_button()]


class SyncRunDetailView(SyncDetailView):
    model = SyncRun
    template_name = "sync/run_detail.html"
    header_icon = "resubmit"
    listing_url_name = "sync_runs"
    listing_label = _("Sync runs")
    live_template = "sync/run_live.html"
    live_url_name = "sync_run_live"

    def get_page_title(self):
        """The run without its status: the status row below follows the run as it goes, and
        a title that cannot would contradict it ("(Running)" above "Finished")."""
        return f"{self.object.get_kind_display()} #{self.object.pk}"

    def is_running(self) -> bool:
        return self.object.status == SyncRun.Status.RUNNING

    def get_context_data(self, **kwargs):
        run = self.object
        return super().get_context_data(
            run=run,
            done=runs.papers_done(run),
            changes=PaperChange.objects.filter(run=run).select_related("paper")[:500],
            requests=sorted((run.requests or {}).items()),
            **kwargs,
        )


class PaperSyncFilterSet(WagtailFilterSet):
    sync_state__failed_attempts__gt = django_filters.NumberFilter(
        field_name="sync_state__failed_attempts", lookup_expr="gt", label=_("Failed attempts")
    )

    class Meta:
        model = Paper
        fields = ["venue", "year"]


class PaperSyncReportView(EditorOnlyMixin, ReportView):
    page_title = _("Papers: sync state")
    header_icon = "doc-full"
    index_url_name = "sync_papers"
    index_results_url_name = "sync_papers_results"
    filterset_class = PaperSyncFilterSet
    columns = [
        TitleColumn("title", label=_("Title"), url_name="sync_paper"),
        Column("venue", label=_("Venue")),
        Column("year", label=_("Year")),
        WhenColumn("sync_state.last_synced_at", label=_("Last synced")),
        Column("sync_state.failed_attempts", label=_("Failed attempts")),
        Column("sync_state.last_error", label=_("Last error")),
    ]

    def get_queryset(self):
        return Paper.objects.select_related("sync_state").order_by("-year", "title")


class PaperSyncDetailView(SyncDetailView):
    model = Paper
    template_name = "sync/paper_detail.html"
    header_icon = "doc-full"
    listing_url_name = "sync_papers"
    listing_label = _("Papers")
    live_template = "sync/paper_live.html"
    live_url_name = "sync_paper_live"

    def get_page_title(self):
        return self.object.title

    def is_running(self) -> bool:
        """Owed to a running run; one failed as stale leaves it owed to the next run only."""
        state = PaperSyncState.objects.filter(paper=self.object).select_related("run").first()
        return bool(
            state and state.in_flight and state.run and state.run.status == SyncRun.Status.RUNNING
        )

    def get_context_data(self, **kwargs):
        paper = self.object
        provenance = paper.provenance or {}
        locked = set(paper.locked_fields or [])
        fields = [
            {
                "name": name,
                "label": label,
                "locked": name in locked,
                "source": provenance.get(name, {}).get("source", ""),
                "fetched_at": provenance.get(name, {}).get("fetched_at", ""),
            }
            for name, label in [*LOCKABLE_FIELDS, ("orcid", _("ORCID"))]
        ]
        state = PaperSyncState.objects.filter(paper=paper).select_related("run").first()
        return super().get_context_data(
            paper=paper,
            state=state,
            fields=fields,
            changes=PaperChange.objects.filter(paper=paper).select_related("run")[:100],
            edit_url=reverse("wagtailsnippets_papers_paper:edit", args=[paper.pk]),
            **kwargs,
        )


@require_POST
def sync_now(request, pk: int):
    """Start a sync of one paper; the answer never waits for it (cms/ops/background.py).

    The run is made here, owing the paper, and handed out as a run's batches are: a second
    press while the first waits for a worker is told so rather than queuing a second sync,
    and a message the broker loses is handed out again (sync/owed.py)."""
    if not may_sync_papers(request.user):
        return permission_denied(request)
    paper = get_object_or_404(Paper, pk=pk)
    run, started = runs.run_start_for_paper(paper_id=paper.pk, trigger=f"admin:{request.user}")
    if not started:
        message = _("“%(title)s” is being synced by %(run)s already.")
        if run.is_queued:
            message = _("“%(title)s” is waiting for the sync worker in %(run)s already.")
        messages.info(request, message % {"title": paper.title, "run": run})
        return redirect("sync_paper", pk=paper.pk)
    owed.hand_out(run, partial(start_after_commit, sync_batch))
    if worker_configured():
        message = _("Sync of “%(title)s” queued for the sync worker; this page follows it.")
    else:
        message = _(
            "Sync of “%(title)s” started in the background (no sync worker is configured); "
            "this page follows it."
        )
    messages.success(request, message % {"title": paper.title})
    return redirect("sync_paper", pk=paper.pk)


class DiscoveryFilterSet(WagtailFilterSet):
    class Meta:
        model = DiscoveryCandidate
        fields = ["status", "venue", "year"]


class DiscoveryReportView(EditorOnlyMixin, ReportView):
    page_title = _("Discovery candidates")
    header_icon = "search"
    index_url_name = "sync_candidates"
    index_results_url_name = "sync_candidates_results"
    filterset_class = DiscoveryFilterSet
    columns = [
        Column("title", label=_("Title")),
        Column("venue", label=_("Venue")),
        Column("year", label=_("Year")),
        Column("authors_display", label=_("Authors")),
        Column("doi", label=_("DOI")),
        Column("get_status_display", label=_("Status")),
        WhenColumn("found_at", label=_("Found")),
    ]
    list_export = ["title", "venue", "year", "doi", "dblp_key", "status", "found_at"]

    def get_queryset(self):
        return DiscoveryCandidate.objects.all()
