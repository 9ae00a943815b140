"""The work a run owes, known from the database: who holds which paper, and handing the rest out.

A paper a run still owes is `in_flight` on its sync state. A worker that takes it leases it
(`lease_until`, `leased_by`) and renews the lease while it works (`PaperLease`), so a paper whose
lease ran out is owed by nobody alive: its worker was killed, or the broker lost the message
that carried it. `hand_out` sends such papers to the workers again; beat runs it every
`SYNC_RECOVER_INTERVAL` (`sync.tasks.sync_owed`), so nothing depends on a message surviving in
Redis. Rows are taken with `select_for_update(skip_locked=True)` (pretix style), and every lease
is taken by a conditional UPDATE, so two processes never hold the same paper (SQLite, which
ignores row locks, serializes the UPDATEs).
"""

from __future__ import annotations

import logging
import os
import socket
import uuid
from collections.abc import Callable
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import Q
from django.utils import timezone

from .conf import sync_setting
from .models import QUEUED_LEASE_PREFIX, PaperSyncState, SyncRun
from .renewal import Renewer
from .selectors import batch_order

logger = logging.getLogger(__name__)
Send = Callable[[int, list[int], str], None]  # (run id, paper ids, hand-out token)


def new_holder() -> str:
    """A name for one lease holder: which process, and which of its batches."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:12]}"


def _free(now, token: str = "") -> Q:
    """Papers nobody alive holds (or that were handed out under `token`)."""
    free = Q(lease_until__isnull=True) | Q(lease_until__lt=now)
    return free | Q(leased_by=token) if token else free


def claim(*, run: SyncRun, paper_ids: list[int], holder: str, token: str = "") -> list[int]:
    """Lease to `holder` the papers of `paper_ids` that `run` owes and no live worker holds."""
    now = timezone.now()
    with transaction.atomic():
        candidates = list(
            PaperSyncState.objects.select_for_update(skip_locked=True)
            .filter(_free(now, token), paper_id__in=paper_ids, run=run, in_flight=True)
            .values_list("paper_id", flat=True)
        )
        if not candidates:
            return []
        PaperSyncState.objects.filter(
            _free(now, token), paper_id__in=candidates, run=run, in_flight=True
        ).update(lease_until=now + timedelta(seconds=lease_seconds()), leased_by=holder)
        mine = set(
            PaperSyncState.objects.filter(paper_id__in=candidates, leased_by=holder).values_list(
                "paper_id", flat=True
            )
        )
    return [pk for pk in paper_ids if pk in mine]


def lease_seconds() -> float:
    return float(settings.SYNC_LEASE_SECONDS)


class PaperLease(Renewer):
    """While the block runs, `holder` keeps its papers and the run shows a sign of life; on
    leaving, papers it did not write are released at once (handed out on the next round)."""

    def __init__(self, *, run: SyncRun, holder: str):
        self.run, self.holder = run, holder
        super().__init__(self._renew, lease_seconds() / 3, uses_database=True)

    def _renew(self) -> None:
        now = timezone.now()
        PaperSyncState.objects.filter(leased_by=self.holder, in_flight=True).update(
            lease_until=now + timedelta(seconds=lease_seconds())
        )
        SyncRun.objects.filter(pk=self.run.pk).update(heartbeat_at=now)

    def __exit__(self, *exc_info) -> None:
        super().__exit__(*exc_info)
        try:
            PaperSyncState.objects.filter(leased_by=self.holder, in_flight=True).update(
                lease_until=None, leased_by=""
            )
        except DatabaseError:  # the lease runs out on its own; keep the original error
            logger.warning("could not release the leases of %s", self.holder, exc_info=True)


def hand_out(run: SyncRun, send: Send) -> int:
    """Send, in batches, the papers `run` owes that no live worker holds; how many were sent.

    Each is leased for `SYNC_QUEUED_LEASE` seconds under a token its message carries, so the
    next round does not send it again while it waits in the queue; a message the broker lost
    only delays it by that lease.
    """
    now = timezone.now()
    token = f"{QUEUED_LEASE_PREFIX}{uuid.uuid4().hex[:12]}"
    with transaction.atomic():
        rows = list(
            PaperSyncState.objects.select_for_update(skip_locked=True, of=("self",))
            .filter(_free(now), run=run, in_flight=True)
            .values_list("paper_id", "paper__year", "paper__venue")
        )
        if not rows:
            return 0
        PaperSyncState.objects.filter(
            _free(now), paper_id__in=[row[0] for row in rows], run=run, in_flight=True
        ).update(
            lease_until=now + timedelta(seconds=settings.SYNC_QUEUED_LEASE),
            leased_by=token,
        )
        handed = set(
            PaperSyncState.objects.filter(leased_by=token).values_list("paper_id", flat=True)
        )
        order = [pk for pk in batch_order(rows) if pk in handed]
    # Sent once the leases are committed (hand_out is called outside any transaction; eager
    # tasks run here and now). A send that fails leaves the papers to the next round.
    size = sync_setting("SYNC_BATCH_SIZE")
    for start in range(0, len(order), size):
        send(run.pk, order[start : start + size], token)
    return len(order)
