"""The sync detail screens say where they are; the Sync now button holds its icon."""

import re

import pytest
from django.urls import reverse

from cms.papers.models import Paper
from sync.models import SyncRun

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, django_user_model):
    client.force_login(django_user_model.objects.create_superuser("boss", password="pw"))
    return client


def breadcrumb_labels(html: str) -> list[str]:
    nav = re.search(r'<nav[^>]*aria-label="Breadcrumb".*?</nav>', html, re.S).group(0)
    return [
        re.sub(r"<[^>]+>", "", label).strip()
        for label in re.findall(r"<(?:a|div)[^>]*>(.*?)</(?:a|div)>", nav, re.S)
    ]


def test_a_paper_screen_is_placed_under_the_papers_listing(admin_client):
    paper = Paper.objects.order_by("pk").first()

    html = admin_client.get(reverse("sync_paper", args=[paper.pk])).content.decode()

    assert breadcrumb_labels(html)[1:] == ["Metadata sync: Papers", paper.title]
    assert f'href="{reverse("sync_papers")}"' in html


def test_a_run_screen_is_placed_under_the_runs_listing(admin_client):
    run = SyncRun.objects.create(kind=SyncRun.Kind.PAPERS, trigger="test")

    html = admin_client.get(reverse("sync_run", args=[run.pk])).content.decode()

    assert breadcrumb_labels(html)[1:] == ["Metadata sync: Sync runs", f"Selected papers #{run.pk}"]


def test_sync_now_is_an_icon_button_in_wagtails_markup(admin_client):
    paper = Paper.objects.order_by("pk").first()

    html = admin_client.get(reverse("sync_paper", args=[paper.pk])).content.decode()

    button = re.search(r"<button[^>]*data-sync-now[^>]*>(.*?)</button>", html, re.S)
    assert "button--icon" in button.group(0)
    assert '<span class="icon-wrapper">' in button.group(1)


@pytest.mark.parametrize("listing", ["sync_papers", "sync_runs", "sync_candidates"])
def test_listing_columns_are_headed_as_wagtail_heads_its_own(admin_client, listing):
    html = admin_client.get(reverse(listing)).content.decode()

    headers = [
        re.sub(r"<[^>]+>|\s+", " ", cell).strip()
        for cell in re.findall(r"<th[^>]*>(.*?)</th>", html, re.S)
    ]
    assert headers and all(header[:1].isupper() for header in headers if header), headers
