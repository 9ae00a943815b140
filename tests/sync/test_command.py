"""`manage.py sync_papers`: in-process sync with a summary, dry runs, bad arguments."""

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connections

from cms.digests.models import DigestPage
from sync import services, tasks
from sync.management.commands.sync_papers import Command as SyncPapers
from sync.models import PaperChange, PaperSyncState, SyncRun
from tests.standin import Canned

pytestmark = pytest.mark.django_db


def run(*args):
    out, err = StringIO(), StringIO()
    call_command("sync_papers", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def summary(out: str) -> dict[str, int]:
    rows = (re.match(r"^(\S.*?)\s{2,}(\d+)$", line) for line in out.splitlines())
    return {row.group(1): int(row.group(2)) for row in rows if row}


def bytescale():
    return DigestPage.objects.get(locale__language_code="en", short_name="ByteScale").paper


def test_sync_selected_papers_prints_a_summary(upstream):
    out, _ = run("--paper", "ByteScale", "--paper", "Swing")
    table = summary(out)
    assert table["papers matched"] == table["papers changed"] == 2
    assert table["errors"] == 0
    assert table["requests to DBLP"] == 2  # one table of contents per proceedings
    assert bytescale().authors.count() == 4
    run_ = SyncRun.objects.get()
    assert run_.kind == SyncRun.Kind.PAPERS and run_.papers_changed == 2


def test_dry_run_writes_nothing(upstream):
    out, _ = run("--paper", "ByteScale", "--dry-run")
    assert "authors <- DBLP" in out
    assert bytescale().authors.count() == 0
    assert not SyncRun.objects.exists() and not PaperChange.objects.exists()


@pytest.mark.parametrize("name", ["dblp", "DBLP"])
def test_one_source_only(upstream, name):
    out, _ = run("--paper", "ByteScale", "--source", name)
    assert "requests to DBLP" in out and "requests to Crossref" not in out
    assert upstream.requests_to("crossref") == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--paper", "NoSuchThing"], "No digest with a paper for: NoSuchThing"),
        (["--source", "scopus"], "Unknown source(s): scopus"),
        (["--enqueue", "--dry-run"], "--enqueue syncs for real"),
    ],
)
def test_bad_arguments_are_named(args, message):
    with pytest.raises(CommandError, match=message.replace("(", r"\(").replace(")", r"\)")):
        run(*args)


def test_an_unreadable_record_is_skipped_and_counted_and_the_rest_synced(upstream):
    def break_one_hit(source, data):
        if source == "dblp":
            hits = data["result"]["hits"].get("hit")
            hits = hits if isinstance(hits, list) else [hits]
            hits.append({"info": {"title": "Unreadable.", "authors": "A Bare String"}})
            data["result"]["hits"]["hit"] = hits
        return data

    upstream.transform = break_one_hit
    out, _ = run("--paper", "ByteScale", "--paper", "Swing")
    table = summary(out)
    assert table["unreadable records from DBLP"] == 2  # one in each table of contents
    assert table["papers matched"] == table["papers changed"] == 2
    assert table["errors"] == 0


def test_errors_make_it_exit_1_after_printing_the_summary(upstream, monkeypatch, capsys):
    # run_from_argv closes the connections as a process about to exit does; that would end
    # the test's transaction (as in tests/seed/test_import_files.py).
    monkeypatch.setattr(connections, "close_all", lambda: None)
    upstream.fail_next("crossref", *[Canned(503, b"busy", "text/html")] * 10)
    with pytest.raises(SystemExit) as exited:
        SyncPapers().run_from_argv(["manage.py", "sync_papers", "--paper", "ByteScale"])
    assert exited.value.code == 1
    captured = capsys.readouterr()
    table = summary(captured.out)
    assert table["errors"] == 1 and table["papers matched"] == 1
    assert "Crossref answered HTTP 503" in captured.err
    assert captured.err.rstrip().endswith("CommandError: The sync had 1 error.")


def test_errors_raise_a_command_error_with_status_1(upstream):
    upstream.fail_next("crossref", *[Canned(503, b"busy", "text/html")] * 10)
    with pytest.raises(CommandError) as raised:
        run("--paper", "ByteScale", "--dry-run")
    assert raised.value.returncode == 1


def queued_sync_now(client, monkeypatch, paper, settings) -> list:
    """An editor presses Sync now on `paper` with a worker configured that has not taken it yet:
    the messages that would go to the worker are returned instead."""
    from django.contrib.auth.models import User
    from django.urls import reverse

    settings.CELERY_TASK_ALWAYS_EAGER = False
    queued = []
    monkeypatch.setattr(
        "cms.ops.background.send_to_worker",
        lambda task, *args, **kwargs: queued.append((task, args, kwargs)) or True,
    )
    client.force_login(User.objects.create_superuser("editor", "e@example.org", "pw"))
    client.post(reverse("sync_paper_now", args=[paper.pk]))
    return queued


def test_a_paper_a_queued_sync_now_owes_is_left_to_it_and_the_rest_synced(
    upstream, client, monkeypatch, settings, django_capture_on_commit_callbacks
):
    """An operator syncs two papers while an editor's Sync now of one waits for the worker. The
    command used to take the paper from the queued run, which then ended with 0 matched."""
    paper = bytescale()
    with django_capture_on_commit_callbacks(execute=True):
        queued = queued_sync_now(client, monkeypatch, paper, settings)
    pressed = SyncRun.objects.get()

    out, err = run("--paper", "ByteScale", "--paper", "Swing")

    assert f"“{paper.title}” is being synced by {pressed} already" in err
    table = summary(out)
    assert table["papers"] == table["papers matched"] == 1  # Swing only
    command_run = SyncRun.objects.exclude(pk=pressed.pk).get()
    assert command_run.papers_total == 1 and command_run.status == SyncRun.Status.FINISHED
    task, args, kwargs = queued[0]
    task.apply(args=args, kwargs=kwargs, throw=True)  # the worker takes the Sync now
    pressed.refresh_from_db()
    assert pressed.status == SyncRun.Status.FINISHED and pressed.papers_matched == 1
    assert paper.authors.count() == 4 and paper.sync_state.run_id == pressed.pk


@pytest.mark.parametrize("args", [["--paper", "ByteScale"], []], ids=["papers", "all"])
def test_enqueue_while_the_broker_does_not_answer_says_so(monkeypatch, args):
    """`--enqueue` with Redis down ended in kombu's traceback; it is now a one-line error that
    says what to do instead, and nothing was started."""
    from kombu.exceptions import OperationalError

    def refused(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(tasks.sync_paper, "delay", refused)
    monkeypatch.setattr(tasks.sync_all, "delay", refused)
    with pytest.raises(CommandError, match="The broker did not answer") as raised:
        run(*args, "--enqueue")
    assert "Connection refused" in str(raised.value) and "without --enqueue" in str(raised.value)
    assert not SyncRun.objects.exists()


def test_ctrl_c_stops_the_run_and_leaves_nothing_for_the_workers(upstream, settings, monkeypatch):
    """An operator stopping an in-process sync with Ctrl-C left its run Running and its papers
    owed: beat's next round handed the rest to the workers, so the sync went on without the
    command. The run now ends Failed, says it was stopped, and owes nothing."""
    settings.SYNC_BATCH_SIZE = 1
    batch = services.sync_batch
    calls = []

    def interrupted_on_the_second(**kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return batch(**kwargs)

    monkeypatch.setattr(services, "sync_batch", interrupted_on_the_second)
    with pytest.raises(CommandError, match=r"Stopped after 1 of 2 papers"):
        run("--paper", "ByteScale", "--paper", "Swing")

    stopped = SyncRun.objects.get()
    assert stopped.status == SyncRun.Status.FAILED and stopped.finished_at
    assert stopped.errors[-1]["message"].startswith("Stopped by the operator")
    assert not PaperSyncState.objects.filter(in_flight=True).exists()
    assert tasks.sync_owed() == "handed out 0, ended 0"
