"""The change log behind `GET /api/v2/changes/` (cms.apicache.changes writes it, changes_api
reads it).

One row per page that was ever public: its latest state (`upsert` while it is public,
`delete` once it is not), stamped with the sequence number of the write that last changed its
API representation. No foreign key to the page: a deleted page keeps its row, so a consumer
learns of the deletion. Consumers read rows in `(seq, page_id)` order from a cursor, so the
index serves each response as a range scan of its own size.
"""

from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _


class PageChange(models.Model):
    UPSERT = "upsert"
    DELETE = "delete"
    ACTIONS = [(UPSERT, _("upsert")), (DELETE, _("delete"))]

    page_id = models.BigIntegerField(unique=True)
    locale = models.CharField(max_length=20)  # the page's language code, as the API writes it
    page_type = models.CharField(max_length=100)  # app_label.Model, as the API's meta.type
    action = models.CharField(max_length=6, choices=ACTIONS)
    html_path = models.CharField(max_length=1000)  # the last address it had, kept on delete
    seq = models.BigIntegerField()
    changed_at = models.DateTimeField()

    class Meta:
        verbose_name = _("page change")
        indexes = [models.Index(fields=["locale", "seq", "page_id"], name="apicache_change_feed")]

    def __str__(self) -> str:
        return f"{self.action} page {self.page_id} at {self.seq}"


class ChangeCounter(models.Model):
    """One row (pk=1): the last sequence number handed out, and the log's epoch.

    Writers lock the row to take the next number and hold the lock until they commit, so
    numbers commit in order and a reader never sees n+1 before n. The epoch changes only when
    the log is rebuilt from scratch (`rebuild_changes --new-epoch`): cursors of another epoch
    are refused (410) rather than silently skipping what the rebuild renumbered.
    """

    value = models.BigIntegerField(default=0)
    epoch = models.CharField(max_length=12)

    class Meta:
        verbose_name = _("change counter")

    def __str__(self) -> str:
        return f"{self.epoch}:{self.value}"
