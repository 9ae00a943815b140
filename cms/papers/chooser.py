"""The digest's paper chooser, with a "New paper" tab: editors create a paper where they need it.

The form holds what an editor knows from the paper's first page; authors, identifiers and
links follow from the sync worker or the full paper form later. Wagtail offers the tab only
to users who may add papers (`papers.add_paper`); other apps may add ways to make a paper above
the form (cms/papers/extensions.py).
"""

from django import forms
from django.utils.translation import gettext_lazy as _
from wagtail.snippets.views.chooser import ChooseView, SnippetChooserViewSet, SnippetCreateView

from .extensions import chooser_creation_html
from .forms import DoiFieldMixin
from .models import Paper


class PaperChooserCreationForm(DoiFieldMixin, forms.ModelForm):
    class Meta:
        model = Paper
        fields = ["title", "venue", "year", "track", "doi"]
        widgets = {"year": forms.NumberInput(attrs={"min": 1900, "max": 2100})}


class CreationExtrasMixin:
    creation_form_template_name = "papers/chooser_creation_form.html"

    def get_creation_form_context_data(self, form):
        return {
            **super().get_creation_form_context_data(form),
            "creation_extras": chooser_creation_html(self.request),
        }


class PaperChooseView(CreationExtrasMixin, ChooseView):
    pass


class PaperCreateView(CreationExtrasMixin, SnippetCreateView):
    pass


class PaperChooserViewSet(SnippetChooserViewSet):
    choose_view_class = PaperChooseView
    create_view_class = PaperCreateView
    creation_form_class = PaperChooserCreationForm
    create_action_label = _("Create paper")
    create_action_clicked_label = _("Creating paper…")
    creation_tab_label = _("New paper")
