"""Papers in the admin: a snippet listing editors can filter by venue and year, a chooser
that creates a paper where a digest needs one (cms/papers/chooser.py), and the report of
retracted and corrected papers (cms/papers/reports.py)."""

from django.templatetags.static import static
from django.urls import path, reverse
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _
from wagtail import hooks
from wagtail.admin.menu import MenuItem
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import IndexView, SnippetViewSet

from cms.ops.snippet_bulk_actions import PermittedBulkActionsMixin

from .api import PapersAPIViewSet
from .chooser import PaperChooserViewSet
from .extensions import listing_header_buttons
from .models import Paper
from .reports import NoticesReportView, acknowledge_notice, may_review_notices
from .selectors import search_papers

PHONE_COLUMN_CLASSES = {
    "title": "papers-listing__title",
    "venue": "papers-listing__secondary",
    "doi": "papers-listing__secondary",
}


class PaperIndexView(PermittedBulkActionsMixin, IndexView):
    """The Papers listing, with the header buttons other apps register (extensions.py), and
    bulk actions only for those who may carry them out (editors may not delete papers)."""

    @cached_property
    def header_buttons(self):
        return [*super().header_buttons, *listing_header_buttons(self.request)]

    @cached_property
    def columns(self):
        """Classes for the phone layout (papers/admin.css): the title keeps the width."""
        columns = super().columns
        for column in columns:
            role = PHONE_COLUMN_CLASSES.get(column.name)
            if role:
                column.classname = " ".join(filter(None, [column.classname, role]))
        return columns

    def search_queryset(self, queryset):
        return search_papers(queryset, self.search_query) if self.is_searching else queryset


class PaperViewSet(SnippetViewSet):
    model = Paper
    icon = "doc-full"
    menu_label = _("Papers")
    menu_order = 200
    add_to_admin_menu = True
    list_display = ["title", "venue", "year", "doi"]
    list_filter = ["venue", "year"]
    # Substring search in the database (selectors.search_papers, as the chooser and the API)
    # rather than the search index: editors paste DOIs and title fragments, which the index's
    # word tokens do not match, and a paper the sync worker just wrote is findable without
    # waiting for the index to be updated.
    search_fields = ["title", "doi"]
    search_backend_name = None
    chooser_viewset_class = PaperChooserViewSet
    index_view_class = PaperIndexView


register_snippet(PaperViewSet)


@hooks.register("insert_global_admin_css")
def papers_admin_css():
    return format_html('<link rel="stylesheet" href="{}">', static("papers/admin.css"))


@hooks.register("register_api_endpoint")
def register_papers_endpoint() -> tuple[str, type[PapersAPIViewSet]]:
    return "papers", PapersAPIViewSet


@hooks.register("register_admin_urls")
def register_notices_report_urls():
    return [
        path("reports/paper-notices/", NoticesReportView.as_view(), name="papers_notices_report"),
        path(
            "reports/paper-notices/results/",
            NoticesReportView.as_view(results_only=True),
            name="papers_notices_report_results",
        ),
        path(
            "reports/paper-notices/<int:pk>/acknowledge/",
            acknowledge_notice,
            name="papers_notice_acknowledge",
        ),
    ]


class NoticesReportMenuItem(MenuItem):
    def is_shown(self, request):
        return may_review_notices(request.user)


@hooks.register("register_reports_menu_item")
def register_notices_report_menu_item():
    return NoticesReportMenuItem(
        _("Retracted and corrected papers"),
        reverse("papers_notices_report"),
        icon_name="warning",
        order=8800,
    )
