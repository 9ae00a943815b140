"""Who a run of failed logins locks out: django-axes' AXES_LOCKOUT_PARAMETERS, as a callable.

Locking the user name alone lets anyone lock the real admin out from anywhere by guessing
`admin` five times; locking the address alone at the same count lets one person lock out every
colleague behind the same NAT. So axes counts failures per (user name, address) pair, locked at
AXES_FAILURE_LIMIT, and the address as a whole joins the lockout parameters only once it has
failed AXES_ADDRESS_FAILURE_LIMIT times (higher), which stops one address guessing many names.
This is the callable form of AXES_LOCKOUT_PARAMETERS that django-axes documents; axes compares
the largest count among the returned parameters with AXES_FAILURE_LIMIT, and the address count
is past that whenever it is returned.
"""

from __future__ import annotations

from axes.helpers import get_cool_off
from axes.models import AccessAttempt, AccessBase
from django.conf import settings
from django.db.models import Sum
from django.http import HttpRequest
from django.utils import timezone

USER_AT_ADDRESS = ["username", "ip_address"]
ADDRESS = "ip_address"


def address_failures(address: str, request: HttpRequest | None = None) -> int:
    """Failed logins from `address`, for any user name, within the cool-off period."""
    attempts = AccessAttempt.objects.filter(ip_address=address)
    cool_off = get_cool_off(request)
    if cool_off is not None:
        now = getattr(request, "axes_attempt_time", None) or timezone.now()
        attempts = attempts.filter(attempt_time__gte=now - cool_off)
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


def lockout_parameters(
    request_or_attempt: HttpRequest | AccessBase, credentials: dict | None = None
) -> list[str | list[str]]:
    """The pair always; the address too once it has reached its own, higher limit."""
    if isinstance(request_or_attempt, AccessBase):
        address, request = request_or_attempt.ip_address, None
    else:  # a Django request, or one wrapped by DRF
        address = getattr(request_or_attempt, "axes_ip_address", None)
        request = request_or_attempt
    if address and address_failures(address, request) >= settings.AXES_ADDRESS_FAILURE_LIMIT:
        return [USER_AT_ADDRESS, ADDRESS]
    return [USER_AT_ADDRESS]
