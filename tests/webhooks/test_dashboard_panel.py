"""The dashboard's webhooks panel: per endpoint, the deliveries the log holds and their median."""

from __future__ import annotations

import time
from datetime import timedelta
from statistics import median

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from cms.digests.models import DigestPage
from cms.translation.policy.roles import EDITORS
from cms.webhooks.dashboard import WebhookDeliveriesPanel
from cms.webhooks.models import Delivery, Endpoint
from tests.support.dashboard import (
    chart_links,
    chart_table,
    dashboard_html,
    panel_ids,
    panel_queries,
)
from tests.support.users import member
from tests.support.workers import free_port
from tests.webhooks.receiver import Reply

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_user(db):
    return get_user_model().objects.create_superuser("root", "root@example.com", "pw")


def expected(endpoint: Endpoint, since) -> dict[str, str]:
    """The panel's row for `endpoint`, worked out from the log row by row."""
    rows = list(endpoint.deliveries.filter(created_at__gte=since))
    pending = [d for d in rows if d.status == Delivery.Status.PENDING]
    durations = [d.duration_ms for d in rows if d.status == Delivery.Status.SUCCEEDED]
    counts = {
        "Delivered": sum(d.status == Delivery.Status.SUCCEEDED for d in rows),
        "Waiting": sum(d.attempts == 0 for d in pending),
        "Retrying": sum(d.attempts > 0 for d in pending),
        "Failed": sum(d.status == Delivery.Status.FAILED for d in rows),
    }
    return {
        **{label: str(count) for label, count in counts.items()},
        "Deliveries": str(len(rows)),
        "median": f"{round(median(durations))} ms" if durations else "—",
    }


def test_numbers_match_the_log_after_writes_and_a_sync(
    endpoint, receiver, upstream, client, admin_user, settings
):
    from sync import tasks

    settings.WEBHOOK_RETRY_DELAYS = [3600]
    quiet = Endpoint.objects.create(
        url="http://127.0.0.1:9/never", events=["sync.finished"], description="Quiet"
    )
    # Writes: two publishes, then a sync of every paper (papers updated, the sync finished).
    for short_name in ("ByteScale", "FabricPerf"):
        page = DigestPage.objects.get(locale__language_code="en", short_name=short_name)
        page.save_revision().publish()
    tasks.sync_all.delay().get()
    # The receiver fails the first attempt (retried later) and refuses the second (failed).
    receiver.replies = [Reply(503), Reply(400)]
    ours = list(endpoint.deliveries.order_by("pk").values_list("pk", flat=True))
    outcomes = deliver_pending_of(ours)
    assert outcomes[:2] == ["retry", "failed"] and set(outcomes[2:]) == {"delivered"}
    # Outside the window: an old delivery, which must not count.
    old = Delivery.objects.create(
        endpoint=endpoint, event_type="page.published", payload={}, status="succeeded"
    )
    Delivery.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=31))

    html = dashboard_html(client, admin_user)
    since = timezone.now() - timedelta(days=30)
    outcomes_table = chart_table(html, "webhook-outcomes")
    latency = chart_table(html, "webhook-latency")
    for row in (endpoint, quiet):
        want = expected(row, since)
        shown = {**outcomes_table[str(row)], "median": latency[str(row)]["Median time to deliver"]}
        assert shown == want
    assert expected(quiet, since)["Waiting"] == "1"  # its sync.finished, not attempted
    assert int(expected(endpoint, since)["Delivered"]) >= 4
    # Each number leads to the log filtered to it.
    links = chart_links(html, "webhook-outcomes")[str(endpoint)]
    assert "/admin/snippets/" not in "".join(links)
    assert any(f"endpoint={endpoint.pk}&status=failed" in link for link in links)


def deliver_pending_of(pks: list[int]) -> list[str]:
    from cms.webhooks import deliveries

    return [deliveries.attempt(pk).status for pk in pks]


def test_the_median_of_an_even_and_an_odd_count(admin_user):
    odd = Endpoint.objects.create(url="https://odd.example/hook", events=["page.published"])
    even = Endpoint.objects.create(url="https://even.example/hook", events=["page.published"])
    for endpoint, durations in ((odd, [40, 10, 900]), (even, [5, 30, 10, 1000])):
        for duration in durations:
            Delivery.objects.create(
                endpoint=endpoint,
                event_type="x",
                payload={},
                status="succeeded",
                duration_ms=duration,
            )
    from cms.webhooks.activity import activity_by_endpoint

    rows = {row.endpoint: row for row in activity_by_endpoint(since=timezone.now() - timedelta(1))}
    assert rows[odd].median_ms == 40
    assert rows[even].median_ms == 20


def test_a_constant_number_of_queries(admin_user, settings):
    settings.WEBHOOK_DASHBOARD_SECONDS = 0  # count on every render: the counting is measured

    def add(endpoints: int, each: int) -> None:
        for _number in range(endpoints):
            endpoint = Endpoint.objects.create(
                url=f"https://e{Endpoint.objects.count()}.example/", events=["page.published"]
            )
            Delivery.objects.bulk_create(
                Delivery(
                    endpoint=endpoint,
                    event_type="page.published",
                    payload={},
                    status=("succeeded", "failed", "pending")[n % 3],
                    attempts=n % 2,
                    duration_ms=n,
                )
                for n in range(each)
            )

    add(1, 3)
    small = panel_queries(WebhookDeliveriesPanel(), admin_user)
    add(5, 200)
    assert panel_queries(WebhookDeliveriesPanel(), admin_user) == small


def test_for_those_who_manage_webhooks_only(client, admin_user):
    editor = member(EDITORS, "editor")
    assert "webhook-deliveries" in panel_ids(dashboard_html(client, admin_user))
    assert "webhook-deliveries" not in panel_ids(dashboard_html(client, editor))


def delivered_shown(client, user, endpoint: Endpoint) -> str:
    return chart_table(dashboard_html(client, user), "webhook-outcomes")[str(endpoint)]["Delivered"]


def delivered(endpoint: Endpoint) -> None:
    Delivery.objects.create(endpoint=endpoint, event_type="x", payload={}, status="succeeded")


def test_counts_are_kept_for_the_seconds_set_and_the_panel_says_when(client, admin_user, settings):
    settings.WEBHOOK_DASHBOARD_SECONDS = 1
    endpoint = Endpoint.objects.create(url="https://kept.example/hook", events=["page.published"])
    delivered(endpoint)
    html = dashboard_html(client, admin_user)
    assert "these numbers are at most 1 second old" in html
    assert chart_table(html, "webhook-outcomes")[str(endpoint)]["Delivered"] == "1"

    delivered(endpoint)
    assert delivered_shown(client, admin_user, endpoint) == "1"  # the kept count, no query
    assert panel_queries(WebhookDeliveriesPanel(), admin_user) == 0
    time.sleep(1.2)
    assert delivered_shown(client, admin_user, endpoint) == "2"  # counted again


def test_counted_on_every_visit_when_nothing_is_kept(client, admin_user, settings):
    settings.WEBHOOK_DASHBOARD_SECONDS = 0
    endpoint = Endpoint.objects.create(url="https://now.example/hook", events=["page.published"])
    delivered(endpoint)
    assert delivered_shown(client, admin_user, endpoint) == "1"
    delivered(endpoint)
    html = dashboard_html(client, admin_user)
    assert chart_table(html, "webhook-outcomes")[str(endpoint)]["Delivered"] == "2"
    assert "Counted at" not in html


def test_a_cache_that_does_not_answer_means_counting(admin_user, settings):
    from cms.webhooks.activity import recent_activity

    endpoint = Endpoint.objects.create(url="https://down.example/hook", events=["page.published"])
    delivered(endpoint)
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",
        }
    }
    for count in (1, 2):
        rows = {row.endpoint: row for row in recent_activity().endpoints}
        assert rows[endpoint].delivered == count
        delivered(endpoint)
