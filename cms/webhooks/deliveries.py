"""One delivery attempt, and what its outcome means for the delivery and its endpoint.

The row is claimed in a short transaction (attempt counted, leased for as long as an attempt
can take), the request is sent outside any transaction, and the outcome is written in another.
A worker killed mid-attempt leaves the lease to run out; the broker's redelivered message (or
`deliver_due`) then attempts again with the same webhook-id. Retried: timeouts, connection
errors, 408, 429 and 5xx, after WEBHOOK_RETRY_DELAYS (or Retry-After, when longer). Other
answers fail at once. An endpoint whose deliveries keep failing is disabled and admins told.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from urllib3.exceptions import HTTPError, NewConnectionError
from urllib3.exceptions import TimeoutError as HTTPTimeout
from urllib3.util import Retry

from . import signing, transport
from .addresses import UnsafeURL, check_url
from .models import TEST_EVENT, Delivery, Endpoint

EXCERPT_CHARS = 500
RETRIED_STATUSES = frozenset({408, 429})


@dataclass(frozen=True)
class Outcome:
    """What an attempt did ("delivered", "retry", "failed", "busy", "done", "gone", "not-due",
    "superseded") and, when the delivery must be tried again, in how many seconds."""

    status: str
    retry_in: float | None = None


@dataclass(frozen=True)
class Answer:
    code: int | None
    duration_ms: int
    excerpt: str = ""
    error: str = ""
    retry_after: float | None = None


def lease_seconds() -> float:
    return 2 * settings.WEBHOOK_TIMEOUT + settings.WEBHOOK_LEASE_MARGIN


def claim(delivery_id: int) -> Delivery | Outcome:
    """Take the delivery for one attempt, or say why not."""
    now = timezone.now()
    with transaction.atomic():
        delivery = (
            Delivery.objects.select_for_update().select_related("endpoint").filter(pk=delivery_id)
        ).first()
        if delivery is None:
            return Outcome("gone")
        if delivery.status != Delivery.Status.PENDING:
            return Outcome("done")
        if delivery.leased_until and delivery.leased_until > now:
            return Outcome("busy", (delivery.leased_until - now).total_seconds())
        if delivery.next_attempt_at and delivery.next_attempt_at > now + timedelta(seconds=0.1):
            return Outcome("not-due")  # the message that schedules it is still on its way
        # A test event is how an admin sees a disabled endpoint answer again: it is sent.
        if not delivery.endpoint.active and delivery.event_type != TEST_EVENT:
            delivery.status = Delivery.Status.FAILED
            delivery.error = _("The endpoint is disabled.")
            delivery.save(update_fields=["status", "error"])
            return Outcome("failed")
        delivery.attempts += 1
        delivery.last_attempt_at = now
        delivery.leased_until = now + timedelta(seconds=lease_seconds())
        delivery.save(update_fields=["attempts", "last_attempt_at", "leased_until"])
        return delivery


def send(delivery: Delivery, addresses: list[str]) -> Answer:
    """POST the payload, signed, to the addresses the URL's check returned, never following
    redirects; keep a short excerpt of the answer."""
    endpoint = delivery.endpoint
    body = json.dumps(delivery.payload, ensure_ascii=False, separators=(",", ":")).encode()
    headers = signing.signed_headers(
        endpoint.signing_secrets(), delivery.webhook_id, timezone.now(), body
    )
    headers["user-agent"] = settings.WEBHOOK_USER_AGENT
    started = time.monotonic()
    timeout = settings.WEBHOOK_TIMEOUT

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    try:
        response = transport.post(
            endpoint.url, addresses, body=body, headers=headers, timeout=timeout
        )
        try:
            raw = response.read(EXCERPT_CHARS * 4, decode_content=True) or b""
        finally:
            response.release_conn()
        excerpt = raw.decode("utf-8", "replace")[:EXCERPT_CHARS]
        try:
            retry_after = Retry().get_retry_after(response)
        except Exception:  # an unreadable Retry-After is ignored, as HTTP says
            retry_after = None
        return Answer(response.status, elapsed(), excerpt, "", retry_after)
    except NewConnectionError as error:  # a ConnectTimeoutError in urllib3, but not a timeout
        reason = getattr(error.__cause__, "strerror", None) or str(error)
        return Answer(
            None, elapsed(), error=_("Could not connect: %(reason)s.") % {"reason": reason}
        )
    except HTTPTimeout:  # connecting, or reading the answer
        return Answer(None, elapsed(), error=_("Timed out after %(s)s seconds.") % {"s": timeout})
    except HTTPError as error:
        return Answer(None, elapsed(), error=str(error)[:500])


def attempt(delivery_id: int) -> Outcome:
    """One attempt at a delivery: claim it, send it, record the answer."""
    claimed = claim(delivery_id)
    if isinstance(claimed, Outcome):
        return claimed
    try:
        addresses = check_url(claimed.endpoint.url)
    except UnsafeURL as error:
        return settle(claimed, Answer(None, 0, error=str(error)), retry=False)
    return settle(claimed, send(claimed, addresses), retry=True)


def settle(delivery: Delivery, answer: Answer, *, retry: bool) -> Outcome:
    """Write the attempt's outcome; schedule nothing (the caller does, from `retry_in`).

    Only while the attempt still owns the row (same attempt count and claim time): once its
    lease ran out and the delivery was resent or claimed again, its outcome is another
    attempt's business and counts neither for nor against the endpoint ("superseded").
    """
    now = timezone.now()
    fields = {
        "response_code": answer.code,
        "duration_ms": answer.duration_ms,
        "response_excerpt": answer.excerpt,
        "error": answer.error,
        "leased_until": None,
    }
    delays = settings.WEBHOOK_RETRY_DELAYS
    succeeded = answer.code is not None and 200 <= answer.code < 300
    retryable = retry and (
        answer.code is None or answer.code in RETRIED_STATUSES or answer.code >= 500
    )
    if succeeded:
        outcome = Outcome("delivered")
        written = {"status": Delivery.Status.SUCCEEDED, "next_attempt_at": None}
    elif retryable and delivery.attempts <= len(delays):
        delay = float(delays[delivery.attempts - 1])
        if answer.retry_after is not None:
            delay = max(delay, min(answer.retry_after, settings.WEBHOOK_RETRY_AFTER_MAX))
        outcome = Outcome("retry", delay)
        written = {"next_attempt_at": now + timedelta(seconds=delay)}
    else:
        outcome = Outcome("failed")
        written = {"status": Delivery.Status.FAILED, "next_attempt_at": None}
    with transaction.atomic():
        owned = Delivery.objects.filter(
            pk=delivery.pk,
            status=Delivery.Status.PENDING,
            attempts=delivery.attempts,
            last_attempt_at=delivery.last_attempt_at,
        ).update(**written, **fields)
        if not owned:
            return Outcome("superseded")
        if succeeded:
            Endpoint.objects.filter(pk=delivery.endpoint_id).update(consecutive_failures=0)
        elif outcome.status == "failed":
            count_failure(delivery.endpoint_id)
        return outcome


def count_failure(endpoint_id: int) -> None:
    """One more delivery failed for good; disable the endpoint after too many in a row."""
    Endpoint.objects.filter(pk=endpoint_id).update(
        consecutive_failures=F("consecutive_failures") + 1
    )
    limit = settings.WEBHOOK_DISABLE_AFTER_FAILURES
    reason = _("%(n)s deliveries in a row failed after every retry.") % {"n": limit}
    disabled = Endpoint.objects.filter(
        pk=endpoint_id, active=True, consecutive_failures__gte=limit
    ).update(active=False, disabled_reason=reason)
    if disabled:
        endpoint = Endpoint.objects.get(pk=endpoint_id)
        transaction.on_commit(lambda: notify_disabled(endpoint))


def notify_disabled(endpoint: Endpoint) -> None:
    """Email every active superuser with an address that `endpoint` was disabled."""
    admins = get_user_model().objects.filter(is_superuser=True, is_active=True).exclude(email="")
    recipients = list(admins.values_list("email", flat=True))
    if recipients:
        send_mail(
            _("Webhook endpoint disabled: %(url)s") % {"url": endpoint.url},
            _(
                "The webhook endpoint %(url)s was disabled: %(reason)s Check the receiver, then "
                "make the endpoint active again in Settings > Webhooks."
            )
            % {"url": endpoint.url, "reason": endpoint.disabled_reason},
            None,
            recipients,
            fail_silently=True,
        )


def due_ids(*, limit: int) -> list[int]:
    """Pending deliveries due for longer than WEBHOOK_SWEEP_GRACE seconds (their message is
    lost, or their retry was left to the row) and whose lease, if any, ran out."""
    now = timezone.now()
    due = now - timedelta(seconds=settings.WEBHOOK_SWEEP_GRACE)
    return list(
        Delivery.objects.filter(status=Delivery.Status.PENDING, next_attempt_at__lte=due)
        .filter(Q(leased_until__isnull=True) | Q(leased_until__lte=now))
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
