"""The digest's paper chooser, with a "New paper" tab: editors create a paper where they need it.

The form holds what an editor knows from the paper's first page; authors, identifiers and
links follow from the sync worker or the full paper form later. Wagtail offers the tab only
to users who may add papers (`papers.add_paper`); other apps may add ways to make a paper above
the form (cms/papers/extensions.py).
"""

from django import forms
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _
from wagtail.admin.forms.choosers import BaseFilterForm, SearchFilterMixin
from wagtail.snippets.views.chooser import (
    ChooseResultsView,
    ChooseView,
    SnippetChooserViewSet,
    SnippetCreateView,
)

from .extensions import chooser_creation_html, typed_paper_fields
from .forms import DoiFieldMixin
from .models import EARLIEST_YEAR, Paper, latest_year
from .selectors import search_papers


class PaperChooserCreationForm(DoiFieldMixin, forms.ModelForm):
    class Meta:
        model = Paper
        fields = ["title", "venue", "year", "track", "doi"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The browser's bounds are the model's (cms.papers.models.validate_year).
        self.fields["year"].widget.attrs.update(min=EARLIEST_YEAR, max=latest_year())


class PaperFilterForm(SearchFilterMixin, BaseFilterForm):
    """The chooser's search box, searching as the Papers listing does (selectors.search_papers):
    Wagtail's chooser searches the index's title words only, so a pasted DOI found nothing."""

    def filter(self, objects):
        objects = BaseFilterForm.filter(self, objects)  # not the index search of the mixin
        query = self.cleaned_data.get("q")
        if query:
            objects = search_papers(objects, query)
            self.is_searching, self.search_query = True, query
        return objects


class CreationExtrasMixin:
    creation_form_template_name = "papers/chooser_creation_form.html"

    def get_creation_form_context_data(self, form):
        return {
            **super().get_creation_form_context_data(form),
            "creation_extras": chooser_creation_html(self.request),
        }


class PaperChooseView(CreationExtrasMixin, ChooseView):
    filter_form_class = PaperFilterForm


class PaperChooseResultsView(ChooseResultsView):
    filter_form_class = PaperFilterForm


class PaperCreateView(CreationExtrasMixin, SnippetCreateView):
    pass


class PaperChooserViewSet(SnippetChooserViewSet):
    choose_view_class = PaperChooseView
    choose_results_view_class = PaperChooseResultsView
    create_view_class = PaperCreateView
    creation_form_class = PaperChooserCreationForm
    create_action_label = _("Create paper")
    create_action_clicked_label = _("Creating paper…")
    creation_tab_label = _("New paper")


def chooser_creation_panel(request, extras: str) -> str:
    """The chooser's whole "New paper" panel with `extras` above the paper form, as a view
    behind `insert_paper_chooser_creation_html` answers a reshow step: an editor whose lookup
    found nothing can still enter the paper by hand, and finds what they had typed."""
    viewset = PaperChooserViewSet
    context = {
        "view": {"creation_tab_id": "create"},
        "creation_extras": mark_safe(extras),
        "creation_form": viewset.creation_form_class(initial=typed_paper_fields(request.POST)),
        "create_action_url": reverse("wagtailsnippetchoosers_papers_paper:create"),
        "create_action_label": viewset.create_action_label,
        "create_action_clicked_label": viewset.create_action_clicked_label,
    }
    return render_to_string("papers/chooser_creation_form.html", context, request)
