"""Papers in the admin: a snippet listing editors can filter by venue and year, and a chooser
that creates a paper where a digest needs one (cms/papers/chooser.py)."""

from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import IndexView, SnippetViewSet

from .chooser import PaperChooserViewSet
from .extensions import listing_header_buttons
from .models import Paper
from .selectors import search_papers


class PaperIndexView(IndexView):
    """The Papers listing, with the header buttons other apps register (extensions.py)."""

    @cached_property
    def header_buttons(self):
        return [*super().header_buttons, *listing_header_buttons(self.request)]

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
