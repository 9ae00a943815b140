"""What the sync worker records: runs, per-paper field diffs, per-paper state, discoveries."""

from django.db import models
from django.utils.translation import gettext_lazy as _


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
    fields_changed = models.PositiveIntegerField(_("fields changed"), default=0)
    requests = models.JSONField(_("requests per source"), default=dict, blank=True)
    errors = models.JSONField(_("errors"), default=list, blank=True)

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
        return f"{self.get_kind_display()} #{self.pk} ({self.get_status_display()})"

    @property
    def error_count(self) -> int:
        return len(self.errors or [])


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

    `in_flight` marks papers a run still owes; `not_before` with `failed_attempts` spaces out
    retries after errors, picked up by the periodic `sync_due` task.
    """

    paper = models.OneToOneField(
        "papers.Paper", on_delete=models.CASCADE, primary_key=True, related_name="sync_state"
    )
    run = models.ForeignKey(
        SyncRun, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    in_flight = models.BooleanField(_("in flight"), default=False)
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
