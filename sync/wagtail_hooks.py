"""Admin wiring: the "Metadata sync" menu, its URLs, a Sync button on each paper, and "Sync all
papers" on the Papers listing."""

from django.templatetags.static import static
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from wagtail import hooks
from wagtail.admin.menu import Menu, MenuItem, SubmenuMenuItem
from wagtail.admin.widgets import HeaderButton, ListingButton

from cms.papers.extensions import CHOOSER_CREATION_HTML_HOOK, LISTING_HEADER_BUTTONS_HOOK
from cms.papers.models import Paper

from . import lookup_views, sync_all_views, views
from .attention import anything_needs_a_person
from .dashboard import PapersNeedingAPersonPanel, SyncActivityPanel


@hooks.register("register_admin_urls")
def sync_admin_urls():
    return [
        path("sync/runs/", views.SyncRunReportView.as_view(), name="sync_runs"),
        path(
            "sync/runs/results/",
            views.SyncRunReportView.as_view(results_only=True),
            name="sync_runs_results",
        ),
        path("sync/runs/all/", sync_all_views.SyncAllView.as_view(), name="sync_all"),
        path("sync/runs/<int:pk>/", views.SyncRunDetailView.as_view(), name="sync_run"),
        path(
            "sync/runs/<int:pk>/live/",
            views.SyncRunDetailView.as_view(live=True),
            name="sync_run_live",
        ),
        path("sync/papers/", views.PaperSyncReportView.as_view(), name="sync_papers"),
        path(
            "sync/papers/results/",
            views.PaperSyncReportView.as_view(results_only=True),
            name="sync_papers_results",
        ),
        path("sync/papers/<int:pk>/", views.PaperSyncDetailView.as_view(), name="sync_paper"),
        path(
            "sync/papers/<int:pk>/live/",
            views.PaperSyncDetailView.as_view(live=True),
            name="sync_paper_live",
        ),
        path("sync/papers/<int:pk>/sync/", views.sync_now, name="sync_paper_now"),
        path("sync/candidates/", views.DiscoveryReportView.as_view(), name="sync_candidates"),
        path("sync/add-paper/", lookup_views.AddFromIdentifierView.as_view(), name="sync_lookup"),
        path(
            "sync/add-paper/chooser/",
            lookup_views.AddFromIdentifierView.as_view(in_chooser=True),
            name="sync_lookup_chooser",
        ),
        path(
            "sync/candidates/results/",
            views.DiscoveryReportView.as_view(results_only=True),
            name="sync_candidates_results",
        ),
    ]


class EditorMenuItem(MenuItem):
    def is_shown(self, request):
        return views.may_sync_papers(request.user)


@hooks.register("register_admin_menu_item")
def sync_menu():
    items = [
        EditorMenuItem(_("Papers"), reverse("sync_papers"), icon_name="doc-full", order=100),
        EditorMenuItem(_("Sync runs"), reverse("sync_runs"), icon_name="resubmit", order=200),
        EditorMenuItem(
            _("Discovery candidates"), reverse("sync_candidates"), icon_name="search", order=300
        ),
    ]
    return SubmenuMenuItem(
        _("Metadata sync"), Menu(items=items), icon_name="resubmit", name="metadata-sync", order=210
    )


@hooks.register("register_snippet_listing_buttons")
def paper_sync_button(snippet, user, next_url=None):
    if isinstance(snippet, Paper) and views.may_sync_papers(user):
        yield ListingButton(
            _("Sync"), reverse("sync_paper", args=[snippet.pk]), icon_name="resubmit", priority=50
        )


@hooks.register("insert_global_admin_js")
def lookup_keeps_paper_form_js():
    """The paper chooser opens in any editor, so its lookup's script is on every admin page."""
    return format_html('<script src="{}"></script>', static("sync/js/lookup_keeps_paper_form.js"))


@hooks.register(LISTING_HEADER_BUTTONS_HOOK)
def add_from_identifier_button(request):
    if lookup_views.may_add_papers(request.user):
        yield HeaderButton(_("Add from identifier"), url=reverse("sync_lookup"), icon_name="search")


@hooks.register(LISTING_HEADER_BUTTONS_HOOK)
def sync_all_button(request):
    if views.may_sync_papers(request.user):
        yield views.sync_all_button()


hooks.register(CHOOSER_CREATION_HTML_HOOK, lookup_views.chooser_panel_html)


@hooks.register("construct_homepage_panels")
def add_sync_activity_panel(request, panels):
    if views.may_sync_papers(request.user):
        panels.append(SyncActivityPanel())


@hooks.register("construct_homepage_panels")
def add_papers_needing_a_person_panel(request, panels):
    if views.may_sync_papers(request.user) and anything_needs_a_person():
        panels.append(PapersNeedingAPersonPanel())
