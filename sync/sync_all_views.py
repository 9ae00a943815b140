""" "Sync all papers" in the admin: one run of every paper, started by an editor.

The run is made in the request (`runs.run_start_for_all`, as the daily sync makes its own), so
the editor is taken straight to its screen, which follows it (sync/static/sync/js/live.js); its
papers are handed out in batches to the sync worker, or without one run in the background of
this process (cms/ops/background.py), as Sync now's are. One run of all papers at a time: a
second press, or the daily sync meanwhile, finds the first and leads to it.
"""

from __future__ import annotations

from functools import partial

from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView
from wagtail.admin.auth import permission_denied
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin

from cms.ops.background import start_after_commit, worker_configured
from cms.papers.models import Paper

from . import owed, runs
from .sources import display_name
from .tasks import sync_batch
from .views import may_sync_papers


class SyncAllView(WagtailAdminTemplateMixin, TemplateView):
    """GET asks the editor to confirm (a link must not start minutes of requests to four
    sources); POST starts the run, for those who may sync papers only."""

    template_name = "sync/sync_all_confirm.html"
    page_title = _("Sync all papers")
    header_icon = "resubmit"

    def dispatch(self, request, *args, **kwargs):
        if not may_sync_papers(request.user):
            return permission_denied(request)
        return super().dispatch(request, *args, **kwargs)

    def get_breadcrumbs_items(self) -> list[dict]:
        return [
            *super().get_breadcrumbs_items(),
            {
                "url": reverse("sync_runs"),
                "label": _("Metadata sync: %(listing)s") % {"listing": _("Sync runs")},
            },
            {"url": "", "label": self.get_page_title()},
        ]

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            papers=Paper.objects.count(),
            sources=", ".join(display_name(name) for name in settings.SYNC_SOURCES),
            running=runs.running_sync_all(),
            **kwargs,
        )

    def post(self, request, *args, **kwargs):
        run = runs.run_start_for_all(trigger=f"admin:{request.user}")
        if run is None:
            running = runs.running_sync_all()
            messages.info(
                request, _("All papers are being synced already, by %(run)s.") % {"run": running}
            )
            return redirect("sync_run", pk=running.pk) if running else redirect("sync_runs")
        owed.hand_out(run, partial(start_after_commit, sync_batch))
        runs.run_finish_if_done(run)  # every paper owed to another run: nothing left to do
        if worker_configured():
            message = _(
                "Sync of all %(n)d papers queued for the sync worker; this page follows it."
            )
        else:
            message = _(
                "Sync of all %(n)d papers started in the background (no sync worker is "
                "configured); this page follows it."
            )
        messages.success(request, message % {"n": run.papers_total})
        return redirect("sync_run", pk=run.pk)
