"""Admin form for papers: locked fields as checkboxes, and a field fixed by hand stays fixed."""

from django import forms
from django.utils.translation import gettext_lazy as _
from wagtail.admin.forms import WagtailAdminModelForm


class PaperForm(WagtailAdminModelForm):
    locked_fields = forms.MultipleChoiceField(
        label=_("Locked fields"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Pinned fields keep your value: the sync worker never writes them. A field you "
            "change here is pinned when you save; untick it to let the sync write it again."
        ),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        from .models import LOCKABLE_FIELDS

        self.fields["locked_fields"].choices = LOCKABLE_FIELDS

    def save(self, commit: bool = True):
        """Lock the fields of an existing paper that the editor changed by hand, so that the
        next sync keeps their fix, unless they untick that lock in the same save; the source
        named in such a field's provenance no longer holds, so its entry goes."""
        paper = self.instance
        if paper.pk is not None:
            stored = type(paper).objects.get(pk=paper.pk)
            unlocked_now = set(stored.locked_fields or []) - set(paper.locked_fields or [])
            edited = self.edited_by_hand(stored) - unlocked_now
            if edited:
                chosen = set(paper.locked_fields or []) | edited
                paper.locked_fields = [name for name in self.lockable() if name in chosen]
                paper.provenance = {
                    field: origin
                    for field, origin in (paper.provenance or {}).items()
                    if field not in edited and not (field == "orcid" and "authors" in edited)
                }
        return super().save(commit)

    def lockable(self) -> list[str]:
        return [name for name, _label in self.fields["locked_fields"].choices]

    def edited_by_hand(self, stored) -> set[str]:
        """The lockable fields whose submitted value differs from `stored`, the paper as saved:
        compared as values, as a widget's round trip (a textarea's CRLF, a JSON list's text)
        is no edit."""
        edited = {
            name
            for name in set(self.lockable()) & set(self.fields)
            if normalized(getattr(self.instance, name)) != normalized(getattr(stored, name))
        }
        for name, formset in self.formsets.items():
            if name in self.lockable():
                fields = [
                    n for n in formset.empty_form.fields if n not in ("id", "ORDER", "DELETE")
                ]
                saved = [
                    [normalized(getattr(row, n)) for n in fields]
                    for row in getattr(stored, name).all()
                ]
                if submitted_rows(formset, fields) != saved:
                    edited.add(name)
        return edited


def submitted_rows(formset, fields: list[str]) -> list[list]:
    """An inline formset's rows as they will be saved, in order, deleted ones left out."""
    forms = formset.ordered_forms if formset.can_order else formset.forms
    deleted = formset.deleted_forms if formset.can_delete else []
    return [
        [normalized(form.cleaned_data.get(n)) for n in fields]
        for form in forms
        if form.cleaned_data and form not in deleted
    ]


def normalized(value):
    """A text as stored: browsers send a textarea's line breaks as CRLF."""
    return value.replace("\r\n", "\n").strip() if isinstance(value, str) else value
