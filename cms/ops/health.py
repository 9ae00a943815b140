"""Liveness and readiness probes for load balancers and orchestrators.

Hand-rolled rather than django-health-check: the probes must answer before host validation and
the HTTPS redirect (an orchestrator probes the pod's address over plain HTTP), stay read-only
(that library's database check writes a row per probe) and say which dependency failed with a
503. That is two small checks and a middleware.
"""

import logging
from collections.abc import Callable

import redis
from django.conf import settings
from django.db import connections
from django.http import HttpRequest, HttpResponse, JsonResponse

logger = logging.getLogger(__name__)

PROBE_TIMEOUT_SECONDS = 2


def check_database() -> None:
    """Raise unless every configured database answers a trivial query."""
    for alias in connections:
        with connections[alias].cursor() as cursor:
            cursor.execute("SELECT 1")


def check_redis() -> None:
    """Raise unless the Redis at REDIS_URL (broker, result store, shared cache) answers PING."""
    client = redis.Redis.from_url(
        settings.REDIS_URL,
        socket_connect_timeout=PROBE_TIMEOUT_SECONDS,
        socket_timeout=PROBE_TIMEOUT_SECONDS,
    )
    try:
        client.ping()
    finally:
        client.close()


def readiness_report() -> dict[str, str]:
    """Check each dependency this deployment has (Redis only when REDIS_URL is configured);
    the value is "ok" or "unavailable" (details go to the log)."""
    checks: dict[str, Callable[[], None]] = {"database": check_database}
    if settings.REDIS_URL:
        checks["redis"] = check_redis
    report = {}
    for name, check in checks.items():
        try:
            check()
        except Exception:
            logger.exception("readiness check %r failed", name)
            report[name] = "unavailable"
        else:
            report[name] = "ok"
    return report


def healthz(request: HttpRequest) -> HttpResponse:
    """The process is up and serving requests; touches no dependency."""
    return JsonResponse({"status": "ok"})


def readyz(request: HttpRequest) -> HttpResponse:
    """Ready for traffic: the database and (when configured) Redis answer; 503 otherwise."""
    checks = readiness_report()
    ready = all(result == "ok" for result in checks.values())
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks},
        status=200 if ready else 503,
    )


PROBES = {"/healthz": healthz, "/readyz": readyz}


class HealthProbeMiddleware:
    """Answer the probes first, before ALLOWED_HOSTS, HTTPS redirect, sessions or CSP."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        probe = PROBES.get(request.path_info.rstrip("/"))
        if probe is not None and request.method in ("GET", "HEAD"):
            response = probe(request)
            response["Cache-Control"] = "no-store"
            return response
        return self.get_response(request)
