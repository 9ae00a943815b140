"""The admin dashboard with the scenario's 10,000 pages, against Wagtail's own dashboard.

Part of `make bench` (BENCH_STAGES=dashboard runs it alone), on the benchmark's server: the
scenario's pages, and 30 days of activity for every panel to draw (sync runs with requests,
changes and errors, webhook deliveries, update notices, sync errors no retry will fix). Each
role (an admin, who sees every panel; an editor; a translator) asks for `/admin/` and for
Wagtail's dashboard without the project's panels (bench/stock_dashboard.py) in interleaved
rounds, on fresh connections with its session cookie, so both sides share the machine's
conditions. Target: p50 at most twice the baseline's.
"""

from __future__ import annotations

import os
from datetime import timedelta
from statistics import median

from .load import fetch, percentile
from .report import Figure
from .server import WORKERS, Server

ROUNDS = int(os.environ.get("BENCH_DASHBOARD_ROUNDS", "15"))
TARGET_RATIO = 2.0
OURS = "/admin/"
STOCK = "/admin/bench-stock-dashboard/"
DAYS = 30
RUNS_PER_DAY = 2
CHANGES_PER_RUN = 20
ERRORS_PER_RUN = 5
ENDPOINTS = 3
DELIVERIES_PER_ENDPOINT = 3000
NOTICES = 50
STUCK_PAPERS = 100
# The panels each role must see on `/admin/`: what is timed is the dashboard with them.
PANELS = {
    "admin": [
        "papers-needing-a-person",
        "translation-coverage",
        "sync-activity",
        "webhook-deliveries",
    ],
    "editor": ["papers-needing-a-person", "translation-coverage", "sync-activity"],
    "translator": ["translation-coverage", "pages-waiting-for-translation"],
}


def add_activity() -> dict[str, int]:
    """30 days of what the panels count, written in bulk; returns how much of each."""
    from django.db import transaction
    from django.utils import timezone

    from cms.papers.models import Paper, PaperNotice
    from cms.webhooks.models import Delivery, Endpoint
    from sync.models import PaperChange, PaperSyncState, SourceRequests, SyncError, SyncRun

    now = timezone.now()
    papers = list(Paper.objects.order_by("pk").values_list("pk", flat=True)[:2000])
    sources = ["dblp", "crossref", "openalex", "semanticscholar"]
    with transaction.atomic():
        runs = []
        for number in range(DAYS * RUNS_PER_DAY):
            run = SyncRun.objects.create(
                kind=SyncRun.Kind.ALL,
                status=SyncRun.Status.FINISHED,
                papers_total=len(papers),
                papers_changed=CHANGES_PER_RUN,
                error_count=ERRORS_PER_RUN,
                finished_at=now,
            )
            started = now - timedelta(hours=number * 24 / RUNS_PER_DAY)
            SyncRun.objects.filter(pk=run.pk).update(started_at=started)
            runs.append(run)
        SourceRequests.objects.bulk_create(
            SourceRequests(run=run, source=source, requests=500 + 10 * index)
            for run in runs
            for index, source in enumerate(sources)
        )
        PaperChange.objects.bulk_create(
            PaperChange(
                run=run,
                paper_id=papers[(number * CHANGES_PER_RUN + index) % len(papers)],
                field="abstract",
                source=sources[index % len(sources)],
                old="before",
                new="after",
            )
            for number, run in enumerate(runs)
            for index in range(CHANGES_PER_RUN)
        )
        SyncError.objects.bulk_create(
            SyncError(
                run=run,
                paper_id=papers[index],
                source=sources[index % len(sources)],
                message="HTTP 503",
            )
            for run in runs
            for index in range(ERRORS_PER_RUN)
        )
        PaperSyncState.objects.bulk_create(
            [
                PaperSyncState(paper_id=pk, run=runs[0], failed_attempts=1, last_error="HTTP 400.")
                for pk in papers[:STUCK_PAPERS]
            ],
            ignore_conflicts=True,
        )
        PaperNotice.objects.bulk_create(
            PaperNotice(
                paper_id=pk,
                notice_doi=f"10.5555/notice.{pk}",
                update_type=("correction", "retraction")[index % 2],
                label=("Correction", "Retraction")[index % 2],
                source=PaperNotice.Source.PUBLISHER,
            )
            for index, pk in enumerate(papers[-NOTICES:])
        )
        for number in range(ENDPOINTS):
            endpoint = Endpoint.objects.create(
                url=f"https://front-end-{number}.example/hooks", events=["page.published"]
            )
            Delivery.objects.bulk_create(
                Delivery(
                    endpoint=endpoint,
                    event_type="page.published",
                    payload={},
                    status=(("succeeded",) * 8 + ("failed", "pending"))[index % 10],
                    attempts=1 + index % 3,
                    duration_ms=20 + index % 400,
                )
                for index in range(DELIVERIES_PER_ENDPOINT)
            )
    return {
        "run_ids": [run.pk for run in runs],
        "sync_runs": len(runs),
        "paper_changes": len(runs) * CHANGES_PER_RUN,
        "sync_errors": len(runs) * ERRORS_PER_RUN,
        "deliveries": ENDPOINTS * DELIVERIES_PER_ENDPOINT,
        "notices": NOTICES,
        "stuck_papers": STUCK_PAPERS,
    }


def remove_activity(run_ids: list[int]) -> None:
    """Take away what `add_activity` wrote: the stages after this one share the scenario's
    database, and the sync stage counts the notices it stores, the changes stage publishes
    pages (which the endpoints above would be sent, to hosts that do not exist)."""
    from cms.papers.models import PaperNotice
    from cms.webhooks.models import Endpoint
    from sync.models import PaperSyncState, SyncRun

    PaperNotice.objects.filter(notice_doi__startswith="10.5555/notice.").delete()
    Endpoint.objects.filter(url__startswith="https://front-end-").delete()
    PaperSyncState.objects.filter(run_id__in=run_ids, last_error="HTTP 400.").delete()
    SyncRun.objects.filter(pk__in=run_ids).delete()


def users() -> dict:
    """An admin, an editor and a translator (the project's roles)."""
    from django.contrib.auth import get_user_model

    from cms.translation.policy.roles import EDITORS, TRANSLATORS, ensure_roles

    groups = ensure_roles()
    model = get_user_model()
    found = {"admin": model.objects.create_superuser("bench-admin", "admin@example.com", "x")}
    for role, group in (("editor", EDITORS), ("translator", TRANSLATORS)):
        user = model.objects.create_user(f"bench-{role}", f"{role}@example.com", "x")
        user.groups.add(groups[group])
        found[role] = user
    return found


def session_cookie(user) -> str:
    from django.conf import settings
    from django.test import Client

    client = Client()
    client.force_login(user)
    return f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"


def query_counts(user) -> dict[str, int]:
    """Queries of each side for `user`, in process (a second request: per-process caches)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    client.force_login(user)
    counts = {}
    for side, path in (("ours", OURS), ("stock", STOCK)):
        client.get(path)
        with CaptureQueriesContext(connection) as queries:
            assert client.get(path).status_code == 200
        counts[side] = len(queries)
    return counts


def measure(server: Server) -> list[Figure]:
    from wagtail.models import Page

    pages = Page.objects.filter(depth__gt=2).count()
    activity = add_activity()
    run_ids = activity.pop("run_ids")
    try:
        return timed(server, pages, activity)
    finally:
        remove_activity(run_ids)


def timed(server: Server, pages: int, activity: dict) -> list[Figure]:
    """The dashboard of each role against Wagtail's own, in interleaved rounds."""
    logins = users()
    cookies = {role: {"Cookie": session_cookie(user)} for role, user in logins.items()}
    base = server.base_url
    # Each worker's first requests pay for imports and per-process caches, not the dashboard.
    for role, headers in cookies.items():
        for _ in range(2 * WORKERS):
            for path in (OURS, STOCK):
                response = fetch(base + path, headers)
                assert response.status == 200, (role, path, response.status)
        body = fetch(base + OURS, headers).body.decode()
        missing = [name for name in PANELS[role] if f'id="{name}-section"' not in body]
        assert not missing, f"{role}'s dashboard lacks {missing}"
    samples = {role: {"ours": [], "stock": []} for role in cookies}
    for round_number in range(ROUNDS):
        for role, headers in cookies.items():
            sides = [("ours", OURS), ("stock", STOCK)]
            for side, path in sides if round_number % 2 == 0 else sides[::-1]:
                response = fetch(base + path, headers)
                assert response.status == 200, (role, path, response.status)
                samples[role][side].append(response.seconds * 1000)
    figures = []
    for role, sides in samples.items():
        ours, stock = median(sides["ours"]), median(sides["stock"])
        queries = query_counts(logins[role])
        ratio = ours / stock if stock else None
        figures.append(
            Figure(
                name=f"admin dashboard, {pages:,} pages: {role}",
                unit="ms",
                value=ours,
                p90=percentile(sides["ours"], 0.9),
                baseline=stock,
                baseline_name="Wagtail's dashboard without the panels",
                ratio=ratio,
                target=f"p50 <= {TARGET_RATIO:g}x Wagtail's dashboard",
                holds=ratio is not None and ratio <= TARGET_RATIO,
                note=f"panels {', '.join(PANELS[role])}; queries ours {queries['ours']}, "
                f"stock {queries['stock']}; {ROUNDS} rounds; activity {activity}",
            )
        )
    return figures
