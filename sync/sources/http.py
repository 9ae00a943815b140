"""Polite JSON over HTTP: retries with backoff and Retry-After, and each source's pace.

The pace (sync/politeness.py) is kept per request that really goes out: its turn is taken in
the adapter once the request is prepared (and by the retry policy before every retry), and it is
reported sent by the connection as soon as the request's bytes are written, which requests and
urllib3 offer no hook for - hence the connection and pool subclasses below, installed through
urllib3's documented `PoolManager.pool_classes_by_scheme`.

Each attempt is also counted (`on_sending`) by the connection itself, once it is connected and
just before the request's first bytes are written: a connection refused sends nothing and counts
nothing, a retry counts again, and the counter (a run's durable count, sync/runs.py) has returned
before any byte leaves. What it cannot be is atomic with the write: a process killed between the
counter's return and the write has counted one request the source never saw. Nothing runs in
that gap but the call into `socket.sendall` - no I/O, no wait, no lock - so it is as narrow as a
count kept outside the source can be; counting after the write would instead open a gap the
width of a whole round trip, in which a kill loses requests the source did answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.connection import HTTPConnection, HTTPSConnection
from urllib3.connectionpool import HTTPConnectionPool, HTTPSConnectionPool
from urllib3.exceptions import MaxRetryError, NewConnectionError
from urllib3.util.retry import Retry

from ..conf import sync_setting
from ..errors import SourceError
from ..politeness import RateLimit


class RetryAfterTooLong(SourceError):
    pass


# The turn (RateLimit, token) the request about to be written took, and its counter.
_leaving = threading.local()
OnSending = Callable[[], None]


def _take_turn(rate_limit: RateLimit | None, on_sending: OnSending | None) -> None:
    if rate_limit is not None:
        _leaving.turn = (rate_limit, rate_limit.acquire())
    _leaving.on_sending = on_sending


def _count_sending() -> None:
    """Count the attempt about to be written, once (its headers and body are separate sends)."""
    on_sending = getattr(_leaving, "on_sending", None)
    if on_sending is not None:
        _leaving.on_sending = None
        on_sending()


def _report_sent() -> None:
    turn = getattr(_leaving, "turn", None)
    if turn is not None:
        _leaving.turn = None
        rate_limit, token = turn
        rate_limit.sent(token)


class _ReportsSent:
    def send(self, data: Any) -> None:
        if self.sock is None and self.auto_open:
            self.connect()  # as http.client would: a refused connection is not counted
        _count_sending()
        super().send(data)

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

    With `fail_fast` (someone is waiting for the answer: an editor's lookup), a connection that
    could not be made at all - the name did not resolve, the connection was refused, no route -
    is not retried: backing off for seconds would not fix it, only hide it behind the lookup's
    deadline. Timeouts and error answers are still retried. The MaxRetryError that ends the
    attempts says how many there were (`attempts`), for `describe_failure`.
    """

    rate_limit: RateLimit | None = None
    on_sending: OnSending | None = None
    fail_fast = False

    def new(self, **kw: Any) -> _PoliteRetry:
        retry = super().new(**kw)
        retry.rate_limit, retry.on_sending = self.rate_limit, self.on_sending
        retry.fail_fast = self.fail_fast
        return retry

    def increment(self, method=None, url=None, response=None, error=None, *args, **kwargs):
        retry = self
        if self.fail_fast and isinstance(error, NewConnectionError):
            retry = self.new(total=0)  # this attempt is the last
        try:
            return super(_PoliteRetry, retry).increment(
                method, url, response, error, *args, **kwargs
            )
        except MaxRetryError as exhausted:
            exhausted.attempts = len(self.history) + 1
            raise

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
        _take_turn(self.rate_limit, self.on_sending)


class _PoliteAdapter(HTTPAdapter):
    """Takes the source's turn once a request is prepared, as late as requests allows."""

    rate_limit: RateLimit | None = None
    on_sending: OnSending | None = None

    def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
        super().init_poolmanager(*args, **kwargs)
        self.poolmanager.pool_classes_by_scheme = {
            "http": _HTTPConnectionPool,
            "https": _HTTPSConnectionPool,
        }

    def send(self, request, **kwargs):
        _take_turn(self.rate_limit, self.on_sending)
        try:
            response = super().send(request, **kwargs)
            # Answered without a socket write this side saw (a transport replaced below the
            # adapter, as `responses` does in tests): the request was made, count it now.
            _count_sending()
            return response
        finally:
            _leaving.on_sending = None
            _report_sent()  # if it never reached the socket (no connection), it still counts


def polite_session(
    rate_limit: RateLimit, *, on_sending: OnSending | None = None, fail_fast: bool = False
) -> requests.Session:
    """A session whose every attempt keeps `rate_limit`'s pace and backs off politely, and
    calls `on_sending()` just before its bytes are written; with `fail_fast`, a connection
    that cannot be made is not retried (see `_PoliteRetry`)."""
    retry = _PoliteRetry(
        total=sync_setting("SYNC_RETRIES"),
        backoff_factor=sync_setting("SYNC_BACKOFF_FACTOR"),
        backoff_jitter=sync_setting("SYNC_BACKOFF_FACTOR"),
        status_forcelist=(429, 500, 502, 503, 504),
        allowed_methods=frozenset({"GET", "POST"}),  # POST here is a read (batch lookups)
        retry_after_max=sync_setting("SYNC_RETRY_AFTER_MAX"),
        raise_on_status=False,
    )
    retry.rate_limit, retry.on_sending, retry.fail_fast = rate_limit, on_sending, fail_fast
    session = requests.Session()
    adapter = _PoliteAdapter(max_retries=retry)
    adapter.rate_limit, adapter.on_sending = rate_limit, on_sending
    session.mount("http://", adapter)
    session.mount("https://", adapter)
    contact = settings.SYNC_CONTACT_EMAIL
    agent = "research-digests-sync/1.0"
    session.headers["User-Agent"] = f"{agent} (mailto:{contact})" if contact else agent
    session.headers["Accept"] = "application/json"
    return session
