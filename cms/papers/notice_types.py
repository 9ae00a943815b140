"""What an update notice's type means to a reader: the paper is retracted, corrected, or under
an expression of concern.

Crossref types a notice (`retraction`, `correction`, `expression_of_concern`, `addendum`...,
lower case with `_`); every representation of a paper (the API's `retracted`, the citations'
note, the feeds' mark, the editors' e-mail) reads the same three sets here. A module of its
own, without models, so that the serializers and citations the model imports can read them.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

# Types that withdraw a paper (readers must not rely on it), and those that correct it.
RETRACTING = frozenset({"retraction", "partial_retraction", "withdrawal", "removal"})
CORRECTING = frozenset({"correction", "erratum", "corrigendum"})
CONCERNING = frozenset({"expression_of_concern"})

# Names editors read (the report, the e-mails) for the types Crossref uses; another type shows
# the notice's own label.
TYPE_LABELS = {
    "retraction": _("Retraction"),
    "partial_retraction": _("Partial retraction"),
    "withdrawal": _("Withdrawal"),
    "removal": _("Removal"),
    "correction": _("Correction"),
    "erratum": _("Erratum"),
    "corrigendum": _("Corrigendum"),
    "expression_of_concern": _("Expression of concern"),
    "addendum": _("Addendum"),
    "new_version": _("New version"),
}

RETRACTED = "retracted"
CONCERN = "concern"
CORRECTED = "corrected"

# The standings, most serious first: a paper with several notices is marked by the first.
STANDINGS = ((RETRACTED, RETRACTING), (CONCERN, CONCERNING), (CORRECTED, CORRECTING))


def standing_of(update_type: str) -> str | None:
    """RETRACTED, CONCERN or CORRECTED for a notice of `update_type`; None for the others
    (an addendum, a new version), which readers are shown but which mark nothing."""
    return next((name for name, types in STANDINGS if update_type in types), None)


def type_label(update_type: str, label: str = "") -> str | Promise:
    """The notice's type as editors read it, in the active language where it is known."""
    return TYPE_LABELS.get(update_type) or label or update_type


def by_seriousness(notices: Iterable[dict]) -> list[dict]:
    """`notices` (as the API shows them) the most serious first, retractions first; the order
    is kept among equals, and notices that mark nothing come last."""
    rank = {name: index for index, (name, _types) in enumerate(STANDINGS)}
    return sorted(notices, key=lambda notice: rank.get(standing_of(notice["type"]), len(rank)))


def standing(update_types: Iterable[str]) -> str | None:
    """The most serious standing among notices of `update_types`, None when none marks."""
    found = {standing_of(update_type) for update_type in update_types}
    return next((name for name, _types in STANDINGS if name in found), None)


def is_retracted(update_types: Iterable[str]) -> bool:
    """Whether any notice of `update_types` retracts or withdraws the paper."""
    return any(update_type in RETRACTING for update_type in update_types)


def notice_url(doi: str | None) -> str | None:
    """Where a notice is read: its DOI's address (a notice known only from OpenAlex's flag
    has no DOI, hence no address)."""
    return f"https://doi.org/{doi}" if doi else None
