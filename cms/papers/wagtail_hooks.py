"""Papers in the admin: a snippet listing editors can filter by venue and year."""

from django.utils.translation import gettext_lazy as _
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import SnippetViewSet

from .models import Paper


class PaperViewSet(SnippetViewSet):
    model = Paper
    icon = "doc-full"
    menu_label = _("Papers")
    menu_order = 200
    add_to_admin_menu = True
    list_display = ["title", "venue", "year", "doi"]
    list_filter = ["venue", "year"]
    search_fields = ["title", "doi"]


register_snippet(PaperViewSet)
