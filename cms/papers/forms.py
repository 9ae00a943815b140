"""Admin form for papers: locked fields as checkboxes, and a field fixed by hand stays fixed."""

import hashlib
import json
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _
from wagtail.admin.forms import WagtailAdminModelForm

from .doi import bare_doi
from .locks import LOCKABLE_FIELDS, PROVENANCE_LOCKED_BY


def doi_as_stored(typed: str) -> str:
    """`typed` as a DOI is stored (cms.papers.doi), or "" when it is no DOI."""
    return bare_doi((typed or "").strip().replace("doi: ", "doi:", 1))


class DoiFieldMixin:
    """A DOI typed or pasted by an editor, stored as the sync worker stores DOIs (bare and
    lower-cased: DOIs are case-insensitive), so that the sync, the reader's doi.org link and
    the uniqueness of DOIs all see one spelling. A DOI another paper holds is refused on the
    field itself, naming that paper, rather than as the database constraint's bare name."""

    def clean_doi(self) -> str:
        typed = (self.cleaned_data.get("doi") or "").strip()
        if not typed:
            return ""
        doi = doi_as_stored(typed)
        if not doi:
            raise forms.ValidationError(
                _("“%(text)s” is not a DOI: a DOI starts with 10. (a doi.org link is fine too)."),
                code="invalid",
                params={"text": typed},
            )
        holder = type(self.instance).objects.filter(doi=doi).exclude(pk=self.instance.pk).first()
        if holder is not None:
            raise forms.ValidationError(
                _("The DOI %(doi)s already belongs to “%(paper)s”."),
                code="unique",
                params={"doi": doi, "paper": holder},
            )
        return doi


class PaperForm(DoiFieldMixin, WagtailAdminModelForm):
    locked_fields = forms.MultipleChoiceField(
        label=_("Locked fields"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Pinned fields keep your value: the sync worker never writes them. A field you "
            "change here is pinned when you save; untick it to let the sync write it again."
        ),
    )
    # What each lockable field held when the form was opened (rendered by Wagtail as a field
    # no panel claims): an edit is what differs from it, not from what a sync wrote since.
    loaded = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["locked_fields"].choices = LOCKABLE_FIELDS
        if self.instance.pk is not None and not self.is_bound:
            self.initial["loaded"] = json.dumps(fingerprints(self.stored_values(self.instance)))

    def save(self, commit: bool = True):
        """Lock the fields of an existing paper that the editor changed by hand, so that the
        next sync keeps their fix, unless they untick that lock in the same save; the source
        named in such a field's provenance no longer holds, so its entry goes. A field they
        did not touch keeps what a sync wrote while the form was open."""
        paper = self.instance
        if paper.pk is not None:
            stored = type(paper).objects.get(pk=paper.pk)
            as_stored = fingerprints(self.stored_values(stored))
            loaded = self.loaded_fingerprints() or as_stored
            submitted = fingerprints(self.submitted_values())
            unlocked_now = set(stored.locked_fields or []) - set(paper.locked_fields or [])
            edited = {name for name in submitted if submitted[name] != loaded.get(name)}
            for name in set(submitted) - edited:
                if name not in self.formsets:
                    setattr(paper, name, getattr(stored, name))
                elif submitted[name] != as_stored[name]:
                    del self.formsets[name]  # unsaved, its rows stay as the sync left them
            paper.doi = doi_as_stored(paper.doi) or paper.doi  # stored bare from now on
            edited -= unlocked_now
            if edited:
                chosen = set(paper.locked_fields or []) | edited
                paper.locked_fields = [name for name in self.lockable() if name in chosen]
                paper.provenance = {
                    field: origin
                    for field, origin in (paper.provenance or {}).items()
                    if field not in edited and PROVENANCE_LOCKED_BY.get(field) not in edited
                }
        return super().save(commit)

    def lockable(self) -> list[str]:
        return [
            name
            for name, _label in self.fields["locked_fields"].choices
            if name in self.fields or name in self.formsets
        ]

    def stored_values(self, paper) -> dict[str, Any]:
        """Each lockable field of `paper` as saved, in the shape the form submits it (a DOI
        saved in another spelling before DOIs were stored bare is not an edit)."""
        values = {}
        for name in self.lockable():
            if name in self.formsets:
                fields = row_fields(self.formsets[name])
                rows = getattr(paper, name).all()
                values[name] = [[normalized(getattr(row, n)) for n in fields] for row in rows]
            elif name == "doi":
                values[name] = doi_as_stored(paper.doi) or normalized(paper.doi)
            else:
                values[name] = normalized(getattr(paper, name))
        return values

    def submitted_values(self) -> dict[str, Any]:
        """Each lockable field as this (valid) form will save it."""
        values = {}
        for name in self.lockable():
            if name in self.formsets:
                values[name] = submitted_rows(self.formsets[name])
            else:
                values[name] = normalized(getattr(self.instance, name))
        return values

    def loaded_fingerprints(self) -> dict[str, str]:
        """What the form held when opened; empty for a post made without the form."""
        try:
            loaded = json.loads(self.cleaned_data.get("loaded") or "{}")
        except ValueError:
            return {}
        return loaded if isinstance(loaded, dict) else {}


def row_fields(formset) -> list[str]:
    return [n for n in formset.empty_form.fields if n not in ("id", "ORDER", "DELETE")]


def submitted_rows(formset) -> list[list]:
    """An inline formset's rows as they will be saved, in order, deleted ones left out."""
    fields = row_fields(formset)
    forms_in_order = formset.ordered_forms if formset.can_order else formset.forms
    deleted = formset.deleted_forms if formset.can_delete else []
    return [
        [normalized(form.cleaned_data.get(n)) for n in fields]
        for form in forms_in_order
        if form.cleaned_data and form not in deleted
    ]


def fingerprints(values: dict[str, Any]) -> dict[str, str]:
    """A short digest per field: the hidden field carries these, not whole abstracts."""
    return {
        name: hashlib.sha256(json.dumps(value, sort_keys=True, default=str).encode()).hexdigest()[
            :16
        ]
        for name, value in values.items()
    }


def normalized(value):
    """A value as compared: browsers send a textarea's line breaks as CRLF."""
    return value.replace("\r\n", "\n").strip() if isinstance(value, str) else value
