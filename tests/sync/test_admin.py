"""The sync screens in Wagtail's admin: runs, paper state with provenance, Sync now, candidates."""

import re
import socket

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from cms.digests.models import DigestPage
from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS, TRANSLATORS
from sync import owed, runs, tasks
from sync.models import PaperChange, SyncRun
from sync.politeness import reset_breakers
from tests.standin import Canned
from tests.support.upstream import held_upstream
from tests.support.users import member
from tests.support.workers import wait_for

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor_client(client):
    client.force_login(User.objects.create_superuser("editor", "e@example.org", "pw"))
    return client


@pytest.fixture
def queued(settings, monkeypatch) -> list:
    """The tasks handed to the sync worker, kept here as in the broker: with a worker
    configured, a Sync now waits until one takes its task (none does in these tests)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    tasks_sent = []
    monkeypatch.setattr(
        "cms.ops.background.send_to_worker",
        lambda task, *args, **kwargs: tasks_sent.append((task, args, kwargs)) or True,
    )
    return tasks_sent


def bytescale():
    return DigestPage.objects.get(locale__language_code="en", short_name="ByteScale").paper


@pytest.mark.django_db(transaction=True)
def test_sync_now_answers_before_the_sync_ends_and_the_run_then_reads_finished(
    committed_seed, upstream, client, settings
):
    """Without a broker (the suite's tasks are eager, as under `make run`), Sync now runs in
    the background of the web process: the answer comes while the sources are still held."""
    settings.SYNC_TIMEOUT = (5.0, 30.0)  # held answers must not time out
    client.force_login(User.objects.create_superuser("editor", "e@example.org", "pw"))
    paper = bytescale()
    paper.locked_fields = ["abstract"]
    paper.save()
    asked, release = held_upstream(upstream)

    response = client.post(reverse("sync_paper_now", args=[paper.pk]), follow=True)

    assert "started in the background" in response.content.decode()
    assert asked.wait(10), "the sync never asked the upstream"
    run = SyncRun.objects.get()
    assert run.status == SyncRun.Status.RUNNING and not release.is_set()
    assert paper.authors.count() == 0  # nothing written while the sources are held
    again = client.post(reverse("sync_paper_now", args=[paper.pk]), follow=True)
    assert f"is being synced by {run} already" in again.content.decode()
    release.set()
    run = wait_for(
        lambda: SyncRun.objects.filter(pk=run.pk).exclude(status="running").first(), 30, "the run"
    )
    assert run.status == SyncRun.Status.FINISHED and "admin:editor" in run.trigger
    assert SyncRun.objects.count() == 1
    assert (run.papers_matched, run.papers_changed, run.error_count) == (1, 1, 0)
    assert run.fields_changed == PaperChange.objects.filter(run=run).count() > 0
    assert sum(run.requests.values()) == len(upstream.log)
    assert paper.authors.count() == 4
    html = client.get(reverse("sync_paper", args=[paper.pk])).content.decode()
    assert "Sync now" in html and "<td>DBLP</td>" in html and "<td>Crossref</td>" in html
    assert "locked" in html  # the abstract's lock is shown


@pytest.mark.django_db(transaction=True)
def test_a_sync_whose_sources_all_failed_reads_failed_with_errors_a_person_can_read(
    committed_seed, client, settings
):
    with socket.socket() as sock:  # a port nothing listens on: connections are refused
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings.SYNC_SOURCES = {
        name: {**config, "OPTIONS": {**config["OPTIONS"], "base_url": f"http://127.0.0.1:{port}"}}
        for name, config in settings.SYNC_SOURCES.items()
    }
    reset_breakers()
    client.force_login(User.objects.create_superuser("editor", "e@example.org", "pw"))
    paper = bytescale()

    client.post(reverse("sync_paper_now", args=[paper.pk]))

    run = wait_for(lambda: SyncRun.objects.exclude(status="running").first(), 60, "the run to end")
    assert run.status == SyncRun.Status.FAILED
    assert run.error_count == len(run.errors) >= 2 and run.papers_matched == 0
    messages = {error["source"]: error["message"] for error in run.errors}
    assert messages["dblp"] == "DBLP could not be reached (connection refused, 4 attempts)"
    assert messages["semanticscholar"].startswith("Semantic Scholar could not be reached")
    assert all("Error" not in message and "(host=" not in message for message in messages.values())
    state = paper.sync_state
    state.refresh_from_db()
    retry = f"Retried automatically after {state.not_before:%Y-%m-%d %H:%M} UTC."
    assert state.last_error.endswith(retry)
    detail = client.get(reverse("sync_run", args=[run.pk])).content.decode()
    assert "Failed" in detail and "DBLP could not be reached" in detail
    assert "retried after" in detail.lower()
    reset_breakers()


def test_run_history_and_detail(upstream, editor_client):
    tasks.sync_paper.delay(bytescale().pk).get()
    run = SyncRun.objects.get()
    listing = editor_client.get(reverse("sync_runs"))
    assert listing.status_code == 200 and str(run) in listing.content.decode()
    detail = editor_client.get(reverse("sync_run", args=[run.pk]))
    assert detail.status_code == 200
    assert "Hao Ge" in detail.content.decode()  # the authors diff


def test_papers_report_and_candidates(upstream, editor_client):
    tasks.discover.delay("SIGCOMM", 2025).get()
    papers = editor_client.get(reverse("sync_papers"))
    assert papers.status_code == 200 and "ByteScale" in papers.content.decode()
    candidates = editor_client.get(reverse("sync_candidates"))
    assert "Optical Circuit Reconfiguration" in candidates.content.decode()


def test_menu_and_snippet_button(editor_client):
    dashboard = editor_client.get(reverse("wagtailadmin_home")).content.decode()
    assert "Metadata sync" in dashboard
    listing = editor_client.get(reverse("wagtailsnippets_papers_paper:list")).content.decode()
    first = Paper.objects.order_by("-year", "title").first()  # on the listing's first page
    assert reverse("sync_paper", args=[first.pk]) in listing


def test_screens_are_for_paper_editors_only(client, django_capture_on_commit_callbacks):
    """An admin user without the paper permission is sent home, and Sync now queues nothing."""
    user = User.objects.create_user("reader", "r@example.org", "pw")
    user.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client.force_login(user)
    paper = bytescale()
    home = reverse("wagtailadmin_home")
    for name, args in [("sync_runs", []), ("sync_papers", []), ("sync_paper", [paper.pk])]:
        response = client.get(reverse(name, args=args))
        assert (response.status_code, response["Location"]) == (302, home), name
    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(reverse("sync_paper_now", args=[paper.pk]))
    assert (response.status_code, response["Location"]) == (302, home)
    assert callbacks == []


def test_a_translator_gets_no_sync_menu_screens_or_sync_now(
    client, django_capture_on_commit_callbacks
):
    """Translators may not edit papers: each way into the sync (the menu, a screen, a direct
    POST to Sync now) refuses them, while an editor in the same admin gets all three."""
    paper = bytescale()
    home = reverse("wagtailadmin_home")
    client.force_login(member(EDITORS, "ed"))
    assert "Metadata sync" in client.get(home).content.decode()
    assert client.get(reverse("sync_paper", args=[paper.pk])).status_code == 200

    client.force_login(member(TRANSLATORS, "tr"))
    dashboard = client.get(home)
    assert dashboard.status_code == 200 and "Metadata sync" not in dashboard.content.decode()
    for name, args in [("sync_runs", []), ("sync_paper", [paper.pk])]:
        response = client.get(reverse(name, args=args))
        assert (response.status_code, response["Location"]) == (302, home), name
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        response = client.post(reverse("sync_paper_now", args=[paper.pk]))
    assert (response.status_code, response["Location"]) == (302, home)
    assert callbacks == [] and not SyncRun.objects.exists()


def test_the_sync_button_is_only_on_listings_of_those_who_may_sync(client):
    """A user who may view papers but not edit them sees no Sync button leading to a refusal."""
    user = User.objects.create_user("viewer", "v@example.org", "pw")
    user.user_permissions.add(
        Permission.objects.get(codename="access_admin"),
        Permission.objects.get(codename="view_paper"),
    )
    client.force_login(user)
    listing = client.get(reverse("wagtailsnippets_papers_paper:list"))
    first = Paper.objects.order_by("-year", "title").first()
    assert listing.status_code == 200 and first.title in listing.content.decode()
    assert reverse("sync_paper", args=[first.pk]) not in listing.content.decode()


def test_sync_now_pressed_twice_before_a_worker_starts_queues_one_sync(
    upstream, client, queued, django_capture_on_commit_callbacks
):
    """With a worker configured, the first press queues the sync; until a worker takes it,
    nothing was running, so a second press used to queue a second sync of the same paper
    (two runs, back to back). The run is now made in the request: the second press is told."""
    client.force_login(member(EDITORS, "ed"))
    paper = bytescale()
    paper.locked_fields = ["abstract"]
    paper.abstract = "An editor's abstract."
    paper.save()
    url = reverse("sync_paper_now", args=[paper.pk])

    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(url, follow=True)
    with django_capture_on_commit_callbacks(execute=True):
        second = client.post(url, follow=True)

    assert "queued for the sync worker" in first.content.decode()
    run = SyncRun.objects.get()
    assert run.status == SyncRun.Status.RUNNING and run.trigger == "admin:ed"
    assert f"waiting for the sync worker in {run} already" in second.content.decode()
    assert len(queued) == 1
    task, args, kwargs = queued[0]
    task.apply(args=args, kwargs=kwargs, throw=True)  # the worker takes it
    run.refresh_from_db()
    paper.refresh_from_db()
    assert run.status == SyncRun.Status.FINISHED and run.papers_matched == 1
    assert paper.authors.count() == 4 and paper.abstract == "An editor's abstract."
    assert SyncRun.objects.count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        third = client.post(url, follow=True)  # once it ended, Sync now syncs again
    assert "queued for the sync worker" in third.content.decode() and len(queued) == 2


def test_a_paper_left_by_a_run_no_worker_finished_does_not_read_in_flight(editor_client):
    """A run failed as stale leaves its papers owed to the next run; the paper's screen said
    "in flight: yes" beside that failed run, as if a worker were syncing it."""
    paper = bytescale()
    run = runs.run_start(kind=SyncRun.Kind.PAPERS, trigger="admin:ed", paper_ids=[paper.pk])
    url = reverse("sync_paper", args=[paper.pk])
    assert re.search(r"<th>in flight</th><td>yes</td>", editor_client.get(url).content.decode())
    SyncRun.objects.filter(pk=run.pk).update(status=SyncRun.Status.FAILED)

    html = editor_client.get(url).content.decode()

    assert re.search(r"<th>in flight</th><td>no</td>", html) and "(Failed)" in html


def test_a_sync_now_no_worker_took_yet_reads_queued_then_running(
    upstream, client, queued, django_capture_on_commit_callbacks
):
    """A Sync now waiting for the worker read "(Running)" on the paper's screen, in the runs'
    list and on the run's own screen, as if a worker were syncing it. It reads "Queued" until
    a worker takes it, then "Running", then "Finished"."""
    client.force_login(member(EDITORS, "ed"))
    paper = bytescale()
    url = reverse("sync_paper_now", args=[paper.pk])
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url)
    run = SyncRun.objects.get()
    screens = [
        reverse("sync_paper", args=[paper.pk]),
        reverse("sync_runs"),
        reverse("sync_run", args=[run.pk]),
    ]

    for screen in screens[:2]:
        html = client.get(screen).content.decode()
        assert f"Selected papers #{run.pk} (Queued)" in html and "(Running)" not in html, screen
    # The run's own screen names its status once, in the row that follows the run as it goes.
    html = client.get(screens[2]).content.decode()
    assert re.search(r"<th>status</th><td>Queued</td>", html) and "(Running)" not in html
    with django_capture_on_commit_callbacks(execute=True):
        again = client.post(url, follow=True).content.decode()
    assert f"waiting for the sync worker in Selected papers #{run.pk} (Queued)" in again

    _task, (_run_id, paper_ids, token), _kwargs = queued[0]
    assert owed.claim(run=run, paper_ids=paper_ids, holder="worker-1", token=token)  # taken
    for screen in screens[:2]:
        html = client.get(screen).content.decode()
        assert f"Selected papers #{run.pk} (Running)" in html and "(Queued)" not in html, screen
    html = client.get(screens[2]).content.decode()
    assert re.search(r"<th>status</th><td>Running</td>", html) and "(Queued)" not in html

    SyncRun.objects.filter(pk=run.pk).update(status=SyncRun.Status.FINISHED)
    html = client.get(screens[0]).content.decode()
    assert f"Selected papers #{run.pk} (Finished)" in html


def test_the_screens_name_each_source_as_people_know_it(upstream, editor_client):
    """Provenance, changes, errors and request counts read "dblp", "crossref",
    "semanticscholar": the settings' keys, where the errors beside them say "DBLP"."""
    upstream.fail_next("crossref", *[Canned(503, b"busy", "text/html")] * 10)
    paper = bytescale()
    assert tasks.sync_paper.delay(paper.pk).get() == "error"
    run = SyncRun.objects.get()

    detail = editor_client.get(reverse("sync_run", args=[run.pk])).content.decode()
    screen = editor_client.get(reverse("sync_paper", args=[paper.pk])).content.decode()

    for html in (detail, screen):
        cells = set(re.findall(r"<td>([^<]*)</td>", html))
        assert "DBLP" in cells and not cells & {"dblp", "crossref", "openalex", "semanticscholar"}
    assert "<th>requests to DBLP</th>" in detail and "<th>requests to Crossref</th>" in detail
    assert "<td>Crossref</td><td>Crossref answered HTTP 503" in detail


def test_a_sync_of_all_papers_leaves_a_queued_sync_now_its_paper(
    upstream, client, queued, monkeypatch, django_capture_on_commit_callbacks
):
    """The daily sync of all papers, starting while an editor's Sync now waits for the worker,
    took the paper from it: the editor's run then ended Finished with 0 papers matched, and the
    paper waited for its turn among all the others. It is now left to the Sync now."""
    client.force_login(member(EDITORS, "ed"))
    paper = bytescale()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("sync_paper_now", args=[paper.pk]))
    pressed = SyncRun.objects.get()
    batches = []
    monkeypatch.setattr(tasks.sync_batch, "delay", lambda *args: batches.append(args))

    tasks.sync_all.apply(throw=True)

    every = SyncRun.objects.get(kind=SyncRun.Kind.ALL)
    assert every.papers_total == Paper.objects.count() - 1
    assert all(paper.pk not in paper_ids for _run, paper_ids, _token in batches)
    task, args, kwargs = queued[0]
    task.apply(args=args, kwargs=kwargs, throw=True)  # the worker takes the Sync now
    pressed.refresh_from_db()
    assert pressed.status == SyncRun.Status.FINISHED and pressed.papers_matched == 1
    assert paper.authors.count() == 4
