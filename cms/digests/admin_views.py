"""The admin's "Add child page" for the project's pages, without autosave.

Wagtail 8 autosaves the create form: the first autosave creates the page (a draft) and turns
the form into its edit view. An editor who typed a title and then left (a first try, a wrong
parent) therefore left a real draft behind, and its slug blocked the next try at the same
title under that topic. Autosave stays on in the edit view, where the page already exists;
on the create form nothing is created until the editor saves or publishes.

Wagtail's public way to swap one page view is a `PageViewSet` (registered through
`register_admin_viewset`) with its own `add_view_class`.
"""

from wagtail.admin.views.pages.create import CreateView
from wagtail.admin.viewsets.pages import PageViewSet


class CreateWithoutAutosaveView(CreateView):
    """Wagtail's create view, its form not autosaved (nor showing the autosave indicator)."""

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["autosave_enabled"] = False
        context["autosave_indicator"] = None
        return context


class ProjectPageViewSet(PageViewSet):
    """Wagtail's page views for one of the project's page types, created without autosave."""

    add_view_class = CreateWithoutAutosaveView
