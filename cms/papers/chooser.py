"""The digest's paper chooser, with a "New paper" tab: editors create a paper where they need it.

The form holds what an editor knows from the paper's first page; authors, identifiers and
links follow from the sync worker or the full paper form later. Wagtail offers the tab only
to users who may add papers (`papers.add_paper`).
"""

from django import forms
from django.utils.translation import gettext_lazy as _
from wagtail.snippets.views.chooser import SnippetChooserViewSet

from .models import Paper


class PaperChooserCreationForm(forms.ModelForm):
    class Meta:
        model = Paper
        fields = ["title", "venue", "year", "track", "doi"]
        widgets = {"year": forms.NumberInput(attrs={"min": 1900, "max": 2100})}


class PaperChooserViewSet(SnippetChooserViewSet):
    creation_form_class = PaperChooserCreationForm
    create_action_label = _("Create paper")
    create_action_clicked_label = _("Creating paper…")
    creation_tab_label = _("New paper")
