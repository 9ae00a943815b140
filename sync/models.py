"""What the sync worker records: runs, per-paper field diffs, per-paper state, discoveries."""

from django.db import models
from django.utils.translation import gettext_lazy as _

# What a paper handed out to the workers is leased under until one takes it (sync/owed.py).
QUEUED_LEASE_PREFIX = "queued:"


class SyncRun(models.Model):
    """One sync: of all papers, of some papers, or a proceedings' discovery."""

    class Kind(models.TextChoices):
        ALL = "all", _("All papers")
        PAPERS = "papers", _("Selected papers")
        DISCOVER = "discover", _("Discovery")

    class Status(models.TextChoices):
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")
        FAILED = "failed", _("Failed")

    kind = models.CharField(_("kind"), max_length=16, choices=Kind.choices)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.RUNNING
    )
    trigger = models.CharField(_("started by"), max_length=100, blank=True)
    task_id = models.CharField(_("task id"), max_length=64, blank=True, editable=False)
    sources = models.JSONField(_("sources"), default=list, blank=True)
    dry_run = models.BooleanField(_("dry run"), default=False)
    started_at = models.DateTimeField(_("started"), auto_now_add=True)
    heartbeat_at = models.DateTimeField(_("last sign of life"), auto_now=True)
    finished_at = models.DateTimeField(_("finished"), null=True, blank=True)
    papers_total = models.PositiveIntegerField(_("papers"), default=0)
    papers_matched = models.PositiveIntegerField(_("papers matched"), default=0)
    papers_changed = models.PositiveIntegerField(_("papers changed"), default=0)
    # Fields whose value changed (the diffs in the run history), papers with at least one.
    fields_changed = models.PositiveIntegerField(_("fields changed"), default=0)
    # Counted with F() in the transaction of each chunk written, so true whatever was killed.
    error_count = models.PositiveIntegerField(_("errors"), default=0)

    class Meta:
        verbose_name = _("sync run")
        verbose_name_plural = _("sync runs")
        ordering = ["-started_at", "-pk"]
        constraints = [
            # The lock that keeps sync_all single: a second running "all" run cannot exist.
            models.UniqueConstraint(
                fields=["kind"],
                condition=models.Q(kind="all", status="running"),
                name="sync_one_running_sync_all",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} #{self.pk} ({self.status_label})"

    @property
    def status_label(self) -> str:
        """The status a person reads: a running run no worker has taken up yet is "Queued"."""
        return _("Queued") if self.is_queued else self.get_status_display()

    @property
    def is_queued(self) -> bool:
        """Running, but waiting for a worker: none of its papers has been taken by one (each is
        still owed and unleased, or leased only to the message carrying it, sync/owed.py) and
        it has sent no request yet."""
        if self.status != self.Status.RUNNING or self.kind == self.Kind.DISCOVER:
            return False
        taken = (
            PaperSyncState.objects.filter(run_id=self.pk)
            .exclude(in_flight=True, leased_by="")
            .exclude(in_flight=True, leased_by__startswith=QUEUED_LEASE_PREFIX)
        )
        return not (taken.exists() or self.request_counts.exists())

    @property
    def requests(self) -> dict[str, int]:
        """Requests per source, as counted so far."""
        return dict(self.request_counts.values_list("source", "requests"))

    @property
    def errors(self) -> list[dict]:
        """The errors kept for the admin (the first MAX_RUN_ERRORS; `error_count` has them all)."""
        return [
            {
                "paper": error.paper_id,
                "source": error.source,
                "message": error.message,
                "retry_at": error.retry_at,
            }
            for error in self.error_rows.all()
        ]


class SourceRequests(models.Model):
    """Requests a run sent to one source: incremented as they are made, never rewritten."""

    run = models.ForeignKey(SyncRun, on_delete=models.CASCADE, related_name="request_counts")
    source = models.CharField(_("source"), max_length=32)
    requests = models.PositiveIntegerField(_("requests"), default=0)

    class Meta:
        verbose_name = _("requests to a source")
        verbose_name_plural = _("requests to sources")
        constraints = [
            models.UniqueConstraint(fields=["run", "source"], name="sync_requests_once_per_source")
        ]

    def __str__(self) -> str:
        return f"{self.source}: {self.requests}"


class SyncError(models.Model):
    """One source's error for one paper in a run, written with the chunk it belongs to."""

    run = models.ForeignKey(SyncRun, on_delete=models.CASCADE, related_name="error_rows")
    paper = models.ForeignKey(
        "papers.Paper", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    source = models.CharField(_("source"), max_length=32)
    message = models.TextField(_("message"))
    # When the paper is tried again on its own (sync_due); empty: not until an editor acts.
    retry_at = models.DateTimeField(_("retried after"), null=True, blank=True)

    class Meta:
        verbose_name = _("sync error")
        verbose_name_plural = _("sync errors")
        ordering = ["pk"]

    def __str__(self) -> str:
        return f"{self.source}: {self.message}"


class PaperChange(models.Model):
    """One field of one paper changed by a run: the diff editors read in the run history."""

    run = models.ForeignKey(SyncRun, on_delete=models.CASCADE, related_name="changes")
    paper = models.ForeignKey("papers.Paper", on_delete=models.CASCADE, related_name="sync_changes")
    field = models.CharField(_("field"), max_length=32)
    source = models.CharField(_("source"), max_length=32)
    old = models.JSONField(_("before"), null=True, blank=True)
    new = models.JSONField(_("after"), null=True, blank=True)

    class Meta:
        verbose_name = _("paper change")
        verbose_name_plural = _("paper changes")
        ordering = ["run_id", "paper_id", "field"]
        constraints = [
            models.UniqueConstraint(
                fields=["run", "paper", "field"], name="sync_change_once_per_run"
            )
        ]

    def __str__(self) -> str:
        return f"{self.paper_id}.{self.field} <- {self.source}"


class PaperSyncState(models.Model):
    """Where each paper stands, as a row (pretix-style) rather than as sleeping tasks.

    `in_flight` marks papers a run still owes: the database, not a message in the broker, is
    what is owed. `lease_until` says until when a worker holds the paper: it renews the lease
    while it works, so a paper in flight whose lease ran out belongs to a worker that died (or a
    message the broker lost) and is handed out again (sync/owed.py). `not_before` with
    `failed_attempts` spaces out retries after errors, picked up by the periodic `sync_due` task.
    """

    paper = models.OneToOneField(
        "papers.Paper", on_delete=models.CASCADE, primary_key=True, related_name="sync_state"
    )
    run = models.ForeignKey(
        SyncRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    in_flight = models.BooleanField(_("in flight"), default=False)
    lease_until = models.DateTimeField(_("leased until"), null=True, blank=True)
    leased_by = models.CharField(_("leased by"), max_length=64, blank=True)
    not_before = models.DateTimeField(_("not before"), null=True, blank=True)
    failed_attempts = models.PositiveSmallIntegerField(_("failed attempts"), default=0)
    last_error = models.TextField(_("last error"), blank=True)
    last_synced_at = models.DateTimeField(_("last synced"), null=True, blank=True)

    class Meta:
        verbose_name = _("paper sync state")
        verbose_name_plural = _("paper sync states")

    def __str__(self) -> str:
        return f"sync state of paper {self.paper_id}"


class DiscoveryCandidate(models.Model):
    """A paper listed in a proceedings' table of contents that the site does not have yet."""

    class Status(models.TextChoices):
        NEW = "new", _("New")
        DISMISSED = "dismissed", _("Dismissed")
        ADDED = "added", _("Added")

    venue = models.CharField(_("venue"), max_length=16)
    year = models.PositiveSmallIntegerField(_("year"))
    title = models.CharField(_("title"), max_length=500)
    authors = models.JSONField(_("authors"), default=list, blank=True)
    dblp_key = models.CharField(_("DBLP key"), max_length=200, unique=True)
    doi = models.CharField(_("DOI"), max_length=200, blank=True)
    url = models.URLField(_("URL"), max_length=1000, blank=True)
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.NEW
    )
    found_at = models.DateTimeField(_("found"), auto_now_add=True)
    run = models.ForeignKey(
        SyncRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="candidates"
    )

    class Meta:
        verbose_name = _("discovery candidate")
        verbose_name_plural = _("discovery candidates")
        ordering = ["-year", "venue", "title"]

    def __str__(self) -> str:
        return f"{self.title} ({self.venue} {self.year})"

    @property
    def authors_display(self) -> str:
        return ", ".join(self.authors or [])
