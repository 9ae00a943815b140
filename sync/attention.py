"""Papers that need a person: update notices nobody has acknowledged, and sync errors that
waiting will not fix.

A notice (a retraction, a correction, from the publisher, Retraction Watch or OpenAlex) stays
until an editor acknowledges it. A sync error is retried automatically with a growing delay
while a source may recover (a timeout, a 429, a 5xx); a paper whose last sync failed for good
(`not_before` left empty: a refused answer, a record that cannot be used) is not tried again
until someone acts, so it is listed. For the dashboard's panel (sync/dashboard.py): a fixed
number of queries whatever the number of papers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max, Q

from cms.papers.models import PaperNotice

from .models import PaperSyncState

LISTED = 10

UNACKNOWLEDGED = Q(acknowledged_at__isnull=True)
STUCK = Q(failed_attempts__gt=0, not_before__isnull=True)


@dataclass
class Attention:
    """What the panel shows: papers per reason, and the first of each kind, newest first."""

    papers: int = 0
    # (notice type, its label as the source gave it, papers), most papers first.
    by_notice_type: list[tuple[str, str, int]] = field(default_factory=list)
    papers_with_errors: int = 0
    notices: list[PaperNotice] = field(default_factory=list)
    errors: list[PaperSyncState] = field(default_factory=list)


def unacknowledged_notices():
    return PaperNotice.objects.filter(UNACKNOWLEDGED)


def stuck_states():
    return PaperSyncState.objects.filter(STUCK)


def anything_needs_a_person() -> bool:
    """Is there a notice to acknowledge or a sync error to look at? (One or two small queries.)"""
    return unacknowledged_notices().exists() or stuck_states().exists()


def needing_a_person(listed: int = LISTED) -> Attention:
    """The papers that need a person, counted by reason; the first `listed` of each kind."""
    # A paper with both counts once (UNION drops duplicates); only the few rows that need a
    # person are read, not every paper.
    papers = (
        unacknowledged_notices()
        .order_by()
        .values("paper_id")
        .union(stuck_states().order_by().values("paper_id"))
        .count()
    )
    by_type = list(
        unacknowledged_notices()
        .order_by()
        .values("update_type")
        .annotate(label=Max("label"), papers=Count("paper_id", distinct=True))
        .order_by("-papers", "update_type")
        .values_list("update_type", "label", "papers")
    )
    notices = list(
        unacknowledged_notices().select_related("paper").order_by("-first_seen_at", "-pk")[:listed]
    )
    errors = list(
        stuck_states()
        .select_related("paper", "run")
        .order_by("-run__started_at", "-paper_id")[:listed]
    )
    return Attention(
        papers=papers,
        by_notice_type=by_type,
        papers_with_errors=stuck_states().count(),
        notices=notices,
        errors=errors,
    )
