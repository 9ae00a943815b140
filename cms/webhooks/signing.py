"""Standard Webhooks headers for one attempt, signed by the `standardwebhooks` library.

During a secret rotation both secrets sign: `webhook-signature` carries both signatures,
space-separated, as the specification allows, so receivers holding either secret verify.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from math import floor

from standardwebhooks import Webhook


def signed_headers(
    secrets: Sequence[str], webhook_id: str, at: datetime, body: bytes
) -> dict[str, str]:
    """The three Standard Webhooks headers and the content type of a delivery attempt."""
    return {
        "content-type": "application/json",
        "webhook-id": webhook_id,
        "webhook-timestamp": str(floor(at.timestamp())),
        # one `v1,...` signature per secret
        "webhook-signature": " ".join(Webhook(s).sign(webhook_id, at, body) for s in secrets),
    }
