"""Endpoints that want events, and one delivery row per event per endpoint.

The delivery row is the truth about a delivery: its `webhook-id`, payload, attempts, when the
next one is due and who holds it (`leased_until`). Broker messages only say "look at row N";
a lost or repeated message cannot lose or double a delivery (cms/webhooks/deliveries.py).
"""

from __future__ import annotations

import base64
import secrets
import uuid
from datetime import timedelta

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from wagtail.models import Locale

EVENT_TYPES = [
    ("page.published", _("Page published")),
    ("page.unpublished", _("Page unpublished")),
    ("page.deleted", _("Page deleted")),
    ("page.moved", _("Page moved")),
    ("translation.published", _("Translation published")),
    ("paper.updated", _("Paper updated")),
    ("sync.finished", _("Sync finished")),
]
TEST_EVENT = "webhook.test"


def new_secret() -> str:
    """A Standard Webhooks secret: `whsec_` and 32 random bytes in base64."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def new_webhook_id() -> str:
    return f"msg_{uuid.uuid4().hex}"


class Endpoint(models.Model):
    """A front end's URL that receives the events it asked for, signed with its secret."""

    url = models.URLField(_("URL"), max_length=1000)
    description = models.CharField(_("description"), max_length=255, blank=True)
    events = models.JSONField(_("events"), default=list)
    locale = models.ForeignKey(
        Locale,
        verbose_name=_("language"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        help_text=_("Only page events in this language; leave empty for every language."),
    )
    active = models.BooleanField(_("active"), default=True)
    secret = models.CharField(max_length=100, default=new_secret, editable=False)
    # During a rotation the old secret signs too (a second signature), until this time.
    previous_secret = models.CharField(max_length=100, blank=True, editable=False)
    previous_secret_until = models.DateTimeField(null=True, blank=True, editable=False)
    consecutive_failures = models.PositiveIntegerField(
        _("failed deliveries in a row"), default=0, editable=False
    )
    disabled_reason = models.CharField(_("disabled because"), max_length=300, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("webhook endpoint")
        verbose_name_plural = _("webhook endpoints")
        ordering = ["url", "pk"]

    def __str__(self) -> str:
        return self.description or self.url

    def event_labels(self) -> str:
        """The events it receives, as an admin reads them."""
        labels = dict(EVENT_TYPES)
        return ", ".join(str(labels.get(kind, kind)) for kind in self.events)

    def signing_secrets(self) -> list[str]:
        """The secrets that sign a message now: the current one, and the previous one while a
        rotation lasts."""
        until = self.previous_secret_until
        if self.previous_secret and until and until > timezone.now():
            return [self.secret, self.previous_secret]
        return [self.secret]

    def rotate_secret(self, overlap: timedelta) -> str:
        """Make a new secret, keep the old one signing for `overlap`; return the new one."""
        self.previous_secret, self.secret = self.secret, new_secret()
        self.previous_secret_until = timezone.now() + overlap
        self.save(update_fields=["secret", "previous_secret", "previous_secret_until"])
        return self.secret

    def wants(self, event_type: str, language_code: str | None) -> bool:
        if not self.active or event_type not in self.events:
            return False
        return self.locale is None or language_code in (None, self.locale.language_code)


class Delivery(models.Model):
    """One event for one endpoint, with every attempt's outcome."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        SUCCEEDED = "succeeded", _("Delivered")
        FAILED = "failed", _("Failed")

    endpoint = models.ForeignKey(
        Endpoint, verbose_name=_("endpoint"), on_delete=models.CASCADE, related_name="deliveries"
    )
    webhook_id = models.CharField(
        _("webhook id"), max_length=64, unique=True, default=new_webhook_id
    )
    event_type = models.CharField(_("event"), max_length=40)
    subject = models.CharField(_("subject"), max_length=100, blank=True)
    payload = models.JSONField(_("payload"))
    status = models.CharField(
        _("status"), max_length=16, choices=Status.choices, default=Status.PENDING
    )
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    next_attempt_at = models.DateTimeField(_("next attempt"), null=True, blank=True)
    leased_until = models.DateTimeField(null=True, blank=True, editable=False)
    last_attempt_at = models.DateTimeField(_("last attempt"), null=True, blank=True)
    response_code = models.PositiveSmallIntegerField(_("response code"), null=True, blank=True)
    duration_ms = models.PositiveIntegerField(_("duration (ms)"), null=True, blank=True)
    response_excerpt = models.CharField(_("response (excerpt)"), max_length=500, blank=True)
    error = models.CharField(_("error"), max_length=500, blank=True)
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        verbose_name = _("webhook delivery")
        verbose_name_plural = _("webhook deliveries")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["status", "next_attempt_at"])]

    def __str__(self) -> str:
        return f"{self.event_type} {self.webhook_id}"
