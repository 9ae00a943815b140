"""Issue 46, item 2: "Sync all papers" in the admin, screens that follow a run, changes and dates
people can read, and `make run`'s sync of the seed (sync_papers --never-synced --if-reachable)."""

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import translation
from wagtail.users.models import UserProfile

from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS, TRANSLATORS
from sync.models import PaperChange, PaperSyncState, SyncRun
from tests.support.users import member

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(settings, monkeypatch) -> list:
    """The tasks handed to the sync worker, kept here as in the broker (none takes them)."""
    settings.CELERY_TASK_ALWAYS_EAGER = False
    sent = []
    monkeypatch.setattr(
        "cms.ops.background.send_to_worker",
        lambda task, *args, **kwargs: sent.append((task, args, kwargs)) or True,
    )
    return sent


def work(queued: list) -> None:
    """The worker takes every task handed to it."""
    while queued:
        task, args, kwargs = queued.pop(0)
        task.apply(args=args, kwargs=kwargs, throw=True)


def live(client, name: str, pk: int) -> dict:
    response = client.get(reverse(name, args=[pk]))
    assert response["Content-Type"] == "application/json"
    return json.loads(response.content)


def test_an_editor_syncs_all_papers_and_the_run_screen_follows_it(
    upstream, client, queued, django_capture_on_commit_callbacks
):
    client.force_login(member(EDITORS, "ed"))
    listing = client.get(reverse("wagtailsnippets_papers_paper:list")).content.decode()
    runs_listing = client.get(reverse("sync_runs")).content.decode()
    assert reverse("sync_all") in listing and reverse("sync_all") in runs_listing
    confirm = client.get(reverse("sync_all")).content.decode()
    assert f"about all {Paper.objects.count()} papers" in confirm
    assert not SyncRun.objects.exists()  # asking is not starting

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("sync_all"))

    run = SyncRun.objects.get()
    assert response["Location"] == reverse("sync_run", args=[run.pk])
    assert (run.kind, run.trigger, run.papers_total) == ("all", "admin:ed", Paper.objects.count())
    following = live(client, "sync_run_live", run.pk)
    assert following["running"] is True
    assert f"0 of {run.papers_total} papers done" in following["html"]
    screen = client.get(reverse("sync_run", args=[run.pk])).content.decode()
    assert f'data-sync-live-url="{reverse("sync_run_live", args=[run.pk])}"' in screen

    work(queued)

    run.refresh_from_db()
    assert run.status == SyncRun.Status.FINISHED and run.papers_matched > 0
    following = live(client, "sync_run_live", run.pk)
    assert following["running"] is False and "papers done" not in following["html"]
    ended = client.get(reverse("sync_run", args=[run.pk])).content.decode()
    assert "data-sync-live-url" not in ended  # nothing left to follow
    change = PaperChange.objects.filter(run=run, field="authors").first()
    names = ", ".join(author["name"] for author in change.new)
    assert names in following["html"] and "{&#x27;name&#x27;" not in following["html"]
    assert "<td>Authors</td>" in following["html"]
    assert Paper.objects.filter(doi__gt="").exists()


def test_a_second_press_leads_to_the_running_sync_of_all_papers(upstream, client, queued):
    client.force_login(member(EDITORS, "ed"))
    client.post(reverse("sync_all"))
    run = SyncRun.objects.get()

    again = client.post(reverse("sync_all"), follow=True)

    assert again.redirect_chain[-1][0] == reverse("sync_run", args=[run.pk])
    assert f"All papers are being synced already, by {run}" in again.content.decode()
    assert SyncRun.objects.count() == 1


def test_a_translator_may_not_sync_all_papers_nor_follow_a_run(client, queued):
    home = reverse("wagtailadmin_home")
    run = SyncRun.objects.create(kind=SyncRun.Kind.ALL, trigger="schedule")
    client.force_login(member(TRANSLATORS, "tr"))
    listing = client.get(reverse("wagtailsnippets_papers_paper:list")).content.decode()
    assert reverse("sync_all") not in listing
    for method, name, args in [
        ("get", "sync_all", []),
        ("post", "sync_all", []),
        ("get", "sync_run_live", [run.pk]),
    ]:
        response = getattr(client, method)(reverse(name, args=args))
        assert (response.status_code, response["Location"]) == (302, home), name
    assert SyncRun.objects.count() == 1 and queued == []
    assert not PaperSyncState.objects.filter(in_flight=True).exists()


def test_sync_now_is_followed_on_the_papers_screen_without_a_reload(
    upstream, client, queued, django_capture_on_commit_callbacks
):
    client.force_login(member(EDITORS, "ed"))
    paper = Paper.objects.order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        pressed = client.post(reverse("sync_paper_now", args=[paper.pk]), follow=True)
    html = pressed.content.decode()
    assert "Reload this page" not in html and "this page follows it" in html
    assert live(client, "sync_paper_live", paper.pk)["running"] is True
    work(queued)
    assert live(client, "sync_paper_live", paper.pk)["running"] is False


@pytest.mark.parametrize(
    ("language", "pattern"),
    [
        ("en", r"[A-Z][a-z]{2}\.? \d{1,2}, \d{4}, \d{1,2}(:\d\d)? [ap]\.m\."),
        ("zh-hant", r"\d{4}年\d{1,2}月\d{1,2}日 \d\d:\d\d"),
    ],
)
def test_every_date_on_the_sync_screens_reads_one_localized_way(
    upstream, client, queued, language, pattern, django_capture_on_commit_callbacks
):
    """The run's screen said "Dec. 6, 2026, 3:04 p.m.", the paper's provenance
    "2026-12-06T15:04:05+00:00", the listings "3 minutes ago"."""
    editor = member(EDITORS, "ed")
    profile = UserProfile.get_for_user(editor)
    profile.preferred_language = language
    profile.save()
    client.force_login(editor)
    paper = Paper.objects.order_by("pk").first()
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("sync_paper_now", args=[paper.pk]))
    work(queued)
    run = SyncRun.objects.get()
    with translation.override(language):
        for url in (
            reverse("sync_run", args=[run.pk]),
            reverse("sync_paper", args=[paper.pk]),
            reverse("sync_runs"),
        ):
            html = client.get(url).content.decode()
            assert re.search(pattern, html), url
            assert not re.search(r"\d{4}-\d\d-\d\dT\d\d:\d\d", html), url
            assert "w-human-readable-date" not in html, url  # Wagtail's "3 minutes ago"


def test_make_run_says_so_when_no_source_answers_and_syncs_nothing(settings, closed_port):
    settings.SYNC_SOURCES = {
        name: {
            **config,
            "OPTIONS": {**config["OPTIONS"], "base_url": f"http://127.0.0.1:{closed_port}"},
        }
        for name, config in settings.SYNC_SOURCES.items()
    }
    out, err = StringIO(), StringIO()

    call_command("sync_papers", never_synced=True, if_reachable=True, stdout=out, stderr=err)

    assert "No source could be reached" in out.getvalue()
    assert "DBLP could not be reached (connection refused)" in err.getvalue()
    assert not SyncRun.objects.exists()


def test_make_run_syncs_the_never_synced_papers_once(upstream):
    out = StringIO()
    call_command(
        "sync_papers",
        never_synced=True,
        if_reachable=True,
        stdout=out,
        stderr=StringIO(),
        verbosity=0,
    )
    run = SyncRun.objects.get()
    assert run.papers_total == Paper.objects.count() and run.status != SyncRun.Status.RUNNING
    synced = PaperSyncState.objects.filter(last_synced_at__isnull=False).count()
    assert synced > 0

    again = StringIO()
    call_command(
        "sync_papers",
        never_synced=True,
        if_reachable=True,
        stdout=again,
        stderr=StringIO(),
        verbosity=0,
    )
    left = Paper.objects.count() - synced
    assert SyncRun.objects.count() == (2 if left else 1)
    if not left:
        assert "Every paper has been synced already." in again.getvalue()
