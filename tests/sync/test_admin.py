"""The sync screens in Wagtail's admin: runs, paper state with provenance, Sync now, candidates."""

import pytest
from django.contrib.auth.models import Permission, User
from django.urls import reverse

from cms.digests.models import DigestPage
from cms.papers.models import Paper
from sync import tasks
from sync.models import SyncRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor_client(client):
    client.force_login(User.objects.create_superuser("editor", "e@example.org", "pw"))
    return client


def bytescale():
    return DigestPage.objects.get(locale__language_code="en", short_name="ByteScale").paper


def test_sync_now_syncs_the_paper_and_its_page_shows_provenance(
    upstream, editor_client, django_capture_on_commit_callbacks
):
    paper = bytescale()
    paper.locked_fields = ["abstract"]
    paper.save()
    with django_capture_on_commit_callbacks(execute=True):
        response = editor_client.post(reverse("sync_paper_now", args=[paper.pk]))
    assert response.status_code == 302
    assert paper.authors.count() == 4
    page = editor_client.get(reverse("sync_paper", args=[paper.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    assert "Sync now" in html and "dblp" in html and "crossref" in html
    assert "locked" in html  # the abstract's lock is shown
    run = SyncRun.objects.get()
    assert "admin:editor" in run.trigger


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
