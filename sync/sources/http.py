"""Polite JSON over HTTP: retries with backoff and Retry-After, and each source's pace.

The pace (sync/politeness.py) is kept per request that really goes out: its turn is taken in
the adapter once the request is prepared (and by the retry policy before every retry), and it is
reported sent by the connection as soon as the request's bytes are written, which requests and
urllib3 offer no hook for - hence the connection and pool subclasses below, installed through
urllib3's documented `PoolManager.pool_classes_by_scheme`.
"""

from __future__ import annotations

import threading
from typing import Any

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.util.retry import Retry

from ..conf import sync_setting
from ..politeness import RateLimit


class SourceError(Exception):
    """A request to a source failed: the papers it was for get an error, nothing else."""

    def __init__(self, message: str, *, retry_later: bool = False):
        super().__init__(message)
        self.retry_later = retry_later


class RetryAfterTooLong(SourceError):
    pass


_leaving = threading.local()  # the turn (RateLimit, token) the request about to be written took


def _take_turn(rate_limit: RateLimit | None) -> None:
    if rate_limit is not None:
        _leaving.turn = (rate_limit, rate_limit.acquire())


def _report_sent() -> None:
    turn = getattr(_leaving, "turn", None)
    if turn is not None:
        _leaving.turn = None
        rate_limit, token = turn
        rate_limit.sent(token)


class _ReportsSent:
    def request(self, *args: Any, **kwargs: Any) -> None:
        try:
            super().request(*args, **kwargs)
        finally:
            _report_sent()


class _HTTPConnection(_ReportsSent, HTTPConnection):
    pass


class _HTTPSConnection(_ReportsSent, HTTPSConnection):
    pass


class _HTTPConnectionPool(HTTPConnectionPool):
    ConnectionCls = _HTTPConnection


class _HTTPSConnectionPool(HTTPSConnectionPool):
    ConnectionCls = _HTTPSConnection


class _PoliteRetry(Retry):
    """urllib3's Retry, taking the source's turn before each retry too.

    Retries happen inside urllib3, below requests, so this is the one place every attempt
    passes through; without it a burst of retries could exceed a source's limit.
    """

    rate_limit: RateLimit | None = None

    def new(self, **kw: Any) -> _PoliteRetry:
        retry = super().new(**kw)
        retry.rate_limit = self.rate_limit
        return retry

    def sleep(self, response=None) -> None:
        if response is not None and self.respect_retry_after_header:
            header = response.headers.get("Retry-After")
            if header and self.parse_retry_after(header) >= self.retry_after_max:
                raise RetryAfterTooLong(
                    f"asked to wait {header} s before the next request (Retry-After)",
                    retry_later=True,
                )
            if header and self.rate_limit is not None:
                self.rate_limit.pause(self.parse_retry_after(header))
        super().sleep(response)
        _take_turn(self.rate_limit)


class _PoliteAdapter(HTTPAdapter):
    """Takes the source's turn once a request is prepared, as late as requests allows."""

    rate_limit: RateLimit | None = None

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _HTTPConnectionPool,
            "https": _HTTPSConnectionPool,
        }

    def send(self, request, **kwargs):
        _take_turn(self.rate_limit)
        try:
            return super().send(request, **kwargs)
        finally:
            _report_sent()  # if it never reached the socket (no connection), it still counts


def polite_session(rate_limit: RateLimit) -> requests.Session:
    """A session whose every attempt keeps `rate_limit`'s pace and backs off politely."""
    retry = _PoliteRetry(
        total=sync_setting("SYNC_RETRIES"),
        backoff_factor=sync_setting("SYNC_BACKOFF_FACTOR"),
        backoff_jitter=sync_setting("SYNC_BACKOFF_FACTOR"),
        status_forcelist=(429, 500, 502, 503, 504),
        allowed_methods=frozenset({"GET", "POST"}),  # POST here is a read (batch lookups)
        retry_after_max=sync_setting("SYNC_RETRY_AFTER_MAX"),
        raise_on_status=False,
    )
    retry.rate_limit = rate_limit
    session = requests.Session()
    adapter = _PoliteAdapter(max_retries=retry)
    adapter.rate_limit = rate_limit
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    contact = settings.SYNC_CONTACT_EMAIL
    agent = "research-digests-sync/1.0"
    session.headers["User-Agent"] = f"{agent} (mailto:{contact})" if contact else agent
    session.headers["Accept"] = "application/json"
    return session
