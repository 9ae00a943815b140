"""A sync run's bookkeeping: which papers it owns and still owes, its counts, its end.

Runs and sync states are the worker's own tables; paper content is written only by
sync/services.py."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from .conf import sync_setting
from .models import PaperSyncState, SyncRun
from .selectors import batch_order

if TYPE_CHECKING:
    from .services import BatchOutcome

MAX_RUN_ERRORS = 1000  # errors kept on a run for the admin; the count is complete regardless


def listing_scope(run: SyncRun) -> str:
    """What a run's batches share listings under: unique even across restored databases."""
    return f"run-{run.pk}-{run.started_at.timestamp():.6f}"


def run_start(
    *,
    kind: str,
    trigger: str,
    paper_ids: list[int],
    source_names: list[str] | None = None,
    task_id: str = "",
) -> SyncRun | None:
    """Create a run owning `paper_ids`; None if it is `all` and another `all` run is running.

    The partial unique constraint on SyncRun is the lock: it holds across processes and
    databases, and survives a broker restart. A run whose heartbeat stopped long ago belonged
    to a worker that died without redelivery; it is failed so a new one can start.
    """
    stale_before = timezone.now() - timedelta(seconds=sync_setting("SYNC_STALE_RUN_AFTER"))
    SyncRun.objects.filter(status=SyncRun.Status.RUNNING, heartbeat_at__lt=stale_before).update(
        status=SyncRun.Status.FAILED, finished_at=timezone.now()
    )
    try:
        with transaction.atomic():
            run = SyncRun.objects.create(
                kind=kind,
                trigger=trigger[:100],
                task_id=task_id or "",
                sources=source_names or [],
                papers_total=len(paper_ids),
            )
            existing = set(
                PaperSyncState.objects.filter(paper_id__in=paper_ids).values_list(
                    "paper_id", flat=True
                )
            )
            PaperSyncState.objects.bulk_create(
                PaperSyncState(paper_id=pk) for pk in paper_ids if pk not in existing
            )
            PaperSyncState.objects.filter(paper_id__in=paper_ids).update(run=run, in_flight=True)
    except IntegrityError:
        return None
    return run


def run_owed(run: SyncRun) -> list[int]:
    """Papers the run still has to sync (after a crash: the ones not done yet), in batch order."""
    return batch_order(
        PaperSyncState.objects.filter(run=run, in_flight=True).values_list(
            "paper_id", "paper__year", "paper__venue"
        )
    )


def run_record(run: SyncRun, outcome: BatchOutcome) -> None:
    """Add a batch's counts to its run (row-locked: batches finish concurrently)."""
    with transaction.atomic():
        locked = SyncRun.objects.select_for_update().get(pk=run.pk)
        requests = Counter(locked.requests or {})
        requests.update(outcome.requests)
        SyncRun.objects.filter(pk=run.pk).update(
            papers_matched=F("papers_matched") + outcome.matched,
            papers_changed=F("papers_changed") + outcome.changed,
            fields_changed=F("fields_changed") + outcome.fields,
            requests=dict(requests),
            errors=((locked.errors or []) + outcome.errors)[:MAX_RUN_ERRORS],
            heartbeat_at=timezone.now(),
        )


def run_finish_if_done(run: SyncRun) -> bool:
    if PaperSyncState.objects.filter(run=run, in_flight=True).exists():
        return False
    return bool(
        SyncRun.objects.filter(pk=run.pk, status=SyncRun.Status.RUNNING).update(
            status=SyncRun.Status.FINISHED, finished_at=timezone.now()
        )
    )
