"""Faults upstream: each leaves existing data intact, records the error, and stays polite."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from cms.digests.models import DigestPage
from sync import runs, services, tasks
from sync.conf import sync_setting
from sync.models import PaperSyncState, SyncRun
from sync.politeness import breaker_for
from sync.selectors import paper_snapshot
from tests.standin import Canned

from .recorded import FIXTURES

pytestmark = pytest.mark.django_db

HTML_429 = (FIXTURES / "errors" / "429.html").read_bytes()
HTML_502 = (FIXTURES / "errors" / "502.html").read_bytes()
TRUNCATED = (FIXTURES / "errors" / "truncated.json").read_bytes()


@pytest.fixture
def bytescale():
    """ByteScale with an editor's abstract already in place."""
    paper = DigestPage.objects.get(locale__language_code="en", short_name="ByteScale").paper
    paper.abstract = "An editor's abstract."
    paper.save()
    return paper


def snapshot(paper):
    paper.refresh_from_db()
    return paper_snapshot(paper)


def run_errors(source):
    run = SyncRun.objects.filter(kind=SyncRun.Kind.PAPERS).first()
    return [e for e in run.errors if e["source"] == source]


def test_429_with_retry_after_is_waited_out(upstream, bytescale):
    upstream.fail_next("dblp", Canned(429, HTML_429, "text/html", {"Retry-After": "1"}))
    assert tasks.sync_paper.delay(bytescale.pk).get() == "changed"
    first, second = upstream.requests_to("dblp")[:2]
    assert second.at - first.at >= 0.95  # Retry-After: 1 honoured
    assert bytescale.authors.count() == 4


def test_429_asking_too_long_a_wait_makes_the_paper_retry_later(upstream, bytescale):
    before = snapshot(bytescale)
    upstream.fail_next("crossref", Canned(429, HTML_429, "text/html", {"Retry-After": "3600"}))
    assert tasks.sync_paper.delay(bytescale.pk).get() == "error"
    assert len(upstream.requests_to("crossref")) == 1  # no hammering while told to wait
    after = snapshot(bytescale)
    assert after["abstract"] == before["abstract"] == "An editor's abstract."
    state = PaperSyncState.objects.get(paper=bytescale)
    assert "Crossref asked to wait 3600 s" in state.last_error and state.failed_attempts == 1
    assert state.not_before is not None  # picked up again by sync_due, not by a sleeping task
    assert run_errors("crossref")
    assert after["authors"] != [] and after["openalex_id"]  # the other sources still synced


def test_5xx_burst_is_retried_with_backoff(upstream, bytescale):
    upstream.fail_next("openalex", *[Canned(502, HTML_502, "text/html")] * 2)
    assert tasks.sync_paper.delay(bytescale.pk).get() == "changed"
    attempts = upstream.requests_to("openalex")
    assert len(attempts) == 3
    # urllib3's exponential backoff: the first retry at once, then factor * 2 = 0.1 s (test
    # settings), plus up to 0.05 s of jitter. Only the lower bound is asserted: an upper one
    # would measure the machine's load.
    assert attempts[2].at - attempts[1].at >= 0.1
    bytescale.refresh_from_db()
    assert bytescale.openalex_id == "W4401234501"


def test_5xx_that_outlasts_the_retries_leaves_data_intact(upstream, bytescale):
    before = snapshot(bytescale)
    upstream.fail_next("crossref", *[Canned(503, HTML_502, "text/html")] * 10)
    upstream.fail_next("openalex", *[Canned(503, HTML_502, "text/html")] * 10)
    assert tasks.sync_paper.delay(bytescale.pk).get() == "error"
    after = snapshot(bytescale)
    assert after["abstract"] == before["abstract"]
    # DBLP's authors came in; OpenAlex, which ranks first for affiliations, failed: none set.
    assert len(after["authors"]) == 4
    assert all(a["affiliations"] == [] for a in after["authors"])
    assert len(upstream.requests_to("crossref")) == 4  # 1 + SYNC_RETRIES
    assert "HTTP 503" in run_errors("crossref")[0]["message"]


def test_timeouts_are_retried_then_recorded(upstream, bytescale):
    before = snapshot(bytescale)
    upstream.fail_next("crossref", *[Canned(200, b"{}", delay=1.5)] * 4)
    assert tasks.sync_paper.delay(bytescale.pk).get() == "error"
    assert len(upstream.requests_to("crossref")) == 4
    assert snapshot(bytescale)["abstract"] == before["abstract"]
    assert "Crossref" in PaperSyncState.objects.get(paper=bytescale).last_error


@pytest.mark.parametrize(
    ("body", "content_type", "message"),
    [(TRUNCATED, "application/json", "malformed JSON"), (HTML_502, "text/html", "instead of JSON")],
    ids=["truncated-json", "html-200"],
)
def test_malformed_bodies_are_errors_for_that_source(
    upstream, bytescale, body, content_type, message
):
    before = snapshot(bytescale)
    upstream.fail_next("crossref", Canned(200, body, content_type))
    assert tasks.sync_paper.delay(bytescale.pk).get() == "error"
    after = snapshot(bytescale)
    assert after["abstract"] == before["abstract"]
    assert message in run_errors("crossref")[0]["message"]
    assert next(a["name"] for a in after["authors"]) == "Hao Ge"  # DBLP still applied


def test_script_in_a_title_is_rejected(upstream, bytescale):
    def inject(source, data):
        if source == "dblp":
            for hit in data["result"]["hits"]["hit"]:
                hit["info"]["title"] = "<script>alert(1)</script>" + hit["info"]["title"]
        return data

    upstream.transform = inject
    before = snapshot(bytescale)
    assert tasks.sync_paper.delay(bytescale.pk).get() == "error"
    after = snapshot(bytescale)
    assert after["title"] == before["title"]
    assert "<" not in after["title"]
    assert "script-like markup" in run_errors("dblp")[0]["message"]


def test_breaker_opens_after_repeated_failures(upstream, bytescale, settings):
    settings.SYNC_RETRIES = 0
    upstream.fail_next("semanticscholar", *[Canned(500, HTML_502, "text/html")] * 50)
    for _ in range(breaker_for("semanticscholar").fail_max):
        tasks.sync_paper.delay(bytescale.pk).get()
    asked = len(upstream.requests_to("semanticscholar"))
    tasks.sync_paper.delay(bytescale.pk).get()
    assert len(upstream.requests_to("semanticscholar")) == asked  # open: not even asked
    assert "circuit open" in run_errors("semanticscholar")[0]["message"]


def test_rate_limit_holds_across_retries(upstream, settings):
    settings.SYNC_RATE_LIMITS = "dblp=2/s"
    upstream.fail_next("dblp", *[Canned(503, HTML_502, "text/html")] * 3)
    paper_ids = list(
        DigestPage.objects.filter(locale__language_code="en").values_list("paper_id", flat=True)
    )
    run = runs.run_start(kind=SyncRun.Kind.PAPERS, trigger="test", paper_ids=paper_ids)
    services.sync_batch(paper_ids=paper_ids, run=run, source_names=["dblp"])
    times = sorted(entry.at for entry in upstream.requests_to("dblp"))
    assert len(times) >= 8 + 3  # eight tables of contents, three retried failures
    for i in range(len(times) - 2):
        # Any three consecutive requests span at least the one-second window (less clock slack).
        assert times[i + 2] - times[i] >= 0.95, times


def test_a_sync_with_errors_does_not_count_as_synced(upstream, bytescale):
    """`last_synced_at` is the last sync in full: a sync that failed, even for one source,
    leaves it (and the fields that source ranks first for) as they were."""
    assert tasks.sync_paper.delay(bytescale.pk).get() == "changed"
    synced = PaperSyncState.objects.get(paper=bytescale).last_synced_at
    assert synced is not None

    upstream.fail_next("crossref", *[Canned(503, HTML_502, "text/html")] * 4)  # each attempt
    assert tasks.sync_paper.delay(bytescale.pk).get() == "error"
    state = PaperSyncState.objects.get(paper=bytescale)
    assert (state.last_synced_at, state.failed_attempts) == (synced, 1)
    assert "Crossref" in state.last_error

    assert tasks.sync_paper.delay(bytescale.pk).get() == "unchanged"
    state.refresh_from_db()
    assert state.last_synced_at > synced and state.failed_attempts == 0


def test_a_paper_no_source_answered_for_is_not_synced_and_retried_on_its_backoff(
    settings, fresh_politeness, closed_port, bytescale, client
):
    """No network: the paper reads "last synced —" next to its failed attempts, and `sync_due`
    retries it once its backoff has passed, not sooner, although it was never synced."""
    settings.SYNC_RETRIES = 0
    settings.SYNC_SOURCES = {
        name: {
            **config,
            "OPTIONS": {**config["OPTIONS"], "base_url": f"http://127.0.0.1:{closed_port}"},
        }
        for name, config in settings.SYNC_SOURCES.items()
    }
    assert tasks.sync_paper.delay(bytescale.pk).get() == "error"
    state = PaperSyncState.objects.get(paper=bytescale)
    assert state.last_synced_at is None and state.failed_attempts == 1
    base = timedelta(seconds=sync_setting("SYNC_RETRY_BASE_DELAY"))
    assert state.not_before - timezone.now() > base - timedelta(minutes=1)

    client.force_login(User.objects.create_superuser("editor", "e@example.org", "pw"))
    detail = client.get(reverse("sync_paper", args=[bytescale.pk])).content.decode()
    assert re.search(r"<th>last synced</th><td>—</td>", detail)
    assert re.search(r"<th>failed attempts</th><td>1</td>", detail)

    assert tasks.sync_due() == "queued 0"  # not before its backoff, however old its last sync
    PaperSyncState.objects.filter(pk=state.pk).update(not_before=timezone.now())
    assert tasks.sync_due() == "queued 1"  # due: retried (eagerly here), and failed again
    state.refresh_from_db()
    assert state.last_synced_at is None and state.failed_attempts == 2
    assert state.not_before - timezone.now() > 2 * base - timedelta(minutes=1)
    assert tasks.sync_due() == "queued 0"


def test_a_due_paper_waiting_for_a_busy_worker_is_not_queued_again_by_the_next_round(
    upstream, bytescale, monkeypatch
):
    """`sync_due` runs every 15 minutes; while a long sync keeps the worker busy its retries
    wait in the queue. Each round used to queue the paper again (nothing said it was queued),
    so once the worker got to them it synced the paper once per round, each its own run,
    ignoring the backoff the first retry set. A retry is now a run made at once."""
    queued = []
    for task in (tasks.sync_paper, tasks.sync_batch):
        monkeypatch.setattr(task, "delay", lambda *args, **kwargs: queued.append((args, kwargs)))
    bytescale.locked_fields = ["abstract"]
    bytescale.save()
    PaperSyncState.objects.create(
        paper=bytescale, failed_attempts=1, not_before=timezone.now() - timedelta(minutes=1)
    )

    assert tasks.sync_due() == "queued 1"
    assert tasks.sync_due() == "queued 0"  # the next round: it waits in the queue already

    assert len(queued) == 1
    run = SyncRun.objects.get()
    assert (run.kind, run.status, run.trigger) == ("papers", "running", "retry")
    monkeypatch.undo()
    args, kwargs = queued[0]
    tasks.sync_batch.apply(args=args, kwargs=kwargs, throw=True)  # the worker gets to it
    run.refresh_from_db()
    assert run.status == SyncRun.Status.FINISHED and run.papers_matched == 1
    assert snapshot(bytescale)["abstract"] == "An editor's abstract."


def test_a_due_paper_of_a_run_no_worker_finished_is_retried(upstream, bytescale):
    """A run no worker worked on is failed with its papers still owed; a paper of it that was
    due a retry is retried on time, not left for the next sync of all papers."""
    run = runs.run_start(kind=SyncRun.Kind.PAPERS, trigger="retry", paper_ids=[bytescale.pk])
    SyncRun.objects.filter(pk=run.pk).update(status=SyncRun.Status.FAILED)
    PaperSyncState.objects.filter(paper=bytescale).update(
        failed_attempts=1, not_before=timezone.now() - timedelta(minutes=1)
    )

    assert tasks.sync_due() == "queued 1"

    state = PaperSyncState.objects.get(paper=bytescale)
    assert not state.in_flight and state.failed_attempts == 0 and state.last_synced_at


def test_sync_due_and_a_sync_now_in_the_same_instant_make_one_run(
    upstream, bytescale, client, monkeypatch, settings, django_capture_on_commit_callbacks
):
    """`sync_due` read its due papers, then made its run of them without the check Sync now
    makes: a Sync now pressed in between made a second run of the paper, and the first of the
    two then ended with 0 matched. Both now ask the one check (runs.run_start_for_papers)."""
    PaperSyncState.objects.create(
        paper=bytescale, failed_attempts=1, not_before=timezone.now() - timedelta(minutes=1)
    )
    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(
        "cms.ops.background.send_to_worker",
        lambda task, *args, **kwargs: queued.append((task, args, kwargs)) or True,
    )
    monkeypatch.setattr(tasks.sync_batch, "delay", lambda *args, **kwargs: queued.append(args))
    client.force_login(User.objects.create_superuser("editor", "e@example.org", "pw"))
    abandon, calls = runs.abandon_stale_runs, []

    def press_sync_now_once_the_due_papers_are_read():
        calls.append(1)
        if len(calls) == 2:  # sync_due's second: after it read what is due, before its run
            with django_capture_on_commit_callbacks(execute=True):
                client.post(reverse("sync_paper_now", args=[bytescale.pk]))
        return abandon()

    monkeypatch.setattr(runs, "abandon_stale_runs", press_sync_now_once_the_due_papers_are_read)

    tasks.sync_due()

    pressed = SyncRun.objects.get()
    assert pressed.trigger == "admin:editor" and len(queued) == 1
    task, args, kwargs = queued[0]
    monkeypatch.undo()
    task.apply(args=args, kwargs=kwargs, throw=True)
    pressed.refresh_from_db()
    assert pressed.status == SyncRun.Status.FINISHED and pressed.papers_matched == 1


def test_errors_name_each_source_as_people_know_it(upstream, bytescale):
    """An answer of another shape than documented read "crossref: unexpected response shape",
    and a record with markup "dblp: rejected ...", on the run's and the paper's screens: the
    sources' internal names, where every other error says "Crossref", "DBLP"."""

    def reshape_and_inject(source, data):
        if source == "crossref":  # `message.items` is documented as a list
            data["message"]["items"] = next(iter(data["message"]["items"]), {})
        elif source == "dblp":
            for hit in data["result"]["hits"]["hit"]:
                hit["info"]["title"] = "<script>alert(1)</script>" + hit["info"]["title"]
        return data

    upstream.transform = reshape_and_inject
    assert tasks.sync_paper.delay(bytescale.pk).get() == "error"

    assert run_errors("crossref")[0]["message"].startswith("Crossref: unexpected response shape")
    assert run_errors("dblp")[0]["message"].startswith("DBLP: rejected a record")
    last_error = PaperSyncState.objects.get(paper=bytescale).last_error
    assert "Crossref: unexpected" in last_error and "DBLP: rejected" in last_error
    assert "crossref:" not in last_error and "dblp:" not in last_error
