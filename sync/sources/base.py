"""What every source shares: the record it returns, its errors, and polite JSON over HTTP."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pybreaker
import requests
from django.conf import settings
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

from ..conf import sync_setting
from ..listings import listing_is_shared, shared_listing
from ..politeness import RateLimit, breaker_for, rate_limit_for


@dataclass(frozen=True)
class AuthorRecord:
    name: str
    given: str = ""
    family: str = ""
    orcid: str = ""
    affiliations: tuple[str, ...] = ()


@dataclass
class PaperRecord:
    """One source's view of a paper, already cleaned to plain text."""

    source: str
    title: str
    year: int | None = None
    authors: list[AuthorRecord] = field(default_factory=list)
    doi: str = ""
    ids: dict[str, str] = field(default_factory=dict)  # dblp_key, openalex_id, ...
    abstract: str = ""
    links: list[tuple[str, str]] = field(default_factory=list)  # (label, url)
    venue: str = ""
    is_preprint: bool = False
    raw_title: str = ""  # as sent, to reject script-like markup that cleaning would hide


@dataclass(frozen=True)
class PaperQuery:
    """What the site knows about a paper, handed to sources (never a model instance)."""

    paper_id: int
    title: str
    venue: str
    year: int
    doi: str = ""
    first_author: str = ""
    ids: dict[str, str] = field(default_factory=dict)


@dataclass
class FetchResult:
    records: dict[int, PaperRecord] = field(default_factory=dict)
    errors: dict[int, str] = field(default_factory=dict)
    retry_later: set[int] = field(default_factory=set)

    def add(self, other: FetchResult) -> None:
        self.records.update(other.records)
        self.errors.update(other.errors)
        self.retry_later |= other.retry_later


class SourceError(Exception):
    """A request to a source failed: the papers it was for get an error, nothing else."""

    def __init__(self, message: str, *, retry_later: bool = False):
        super().__init__(message)
        self.retry_later = retry_later


class RetryAfterTooLong(SourceError):
    pass


class _PoliteRetry(Retry):
    """urllib3's Retry, taking a rate-limit slot before each retry too.

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
                raise RetryAfterTooLong(f"asked to wait {header}s", retry_later=True)
            if header and self.rate_limit is not None:
                self.rate_limit.pause(self.parse_retry_after(header))
        super().sleep(response)
        if self.rate_limit is not None:
            self.rate_limit.acquire()


class _PoliteAdapter(HTTPAdapter):
    """Takes the rate-limit slot at the last moment before a request goes out.

    After the request is prepared, so that as little as possible (a busy process being
    descheduled) can come between the slot and the socket; retries take theirs in
    `_PoliteRetry.sleep`.
    """

    rate_limit: RateLimit | None = None

    def send(self, request, **kwargs):
        if self.rate_limit is not None:
            self.rate_limit.acquire()
        return super().send(request, **kwargs)


class Source:
    """A bibliographic source. Subclasses implement `fetch` (and may batch inside it).

    `listing_scope` names the run a source works for: listings (a proceedings' table of
    contents) are then fetched once per run and shared by all its batches; without one, each
    `fetch` asks afresh.
    """

    label = ""

    def __init__(self, *, name: str, options: dict[str, Any], listing_scope: str = ""):
        self.name = name
        self.options = options
        self.listing_scope = listing_scope
        self.base_url = options.get("base_url", "").rstrip("/")
        self.requests_made = 0
        self.rate_limit = rate_limit_for(name)
        self.breaker = breaker_for(name)
        self.session = self._session()

    def fetch_each(self, queries: list[PaperQuery]) -> Iterator[tuple[list[int], FetchResult]]:
        """What each request found, as it comes: the papers it answered for, and its result.

        Papers the source does not ask about need not be named; when the iterator ends the
        source is done with all of `queries`.
        """
        raise NotImplementedError

    def fetch(self, queries: list[PaperQuery]) -> FetchResult:
        """Every answer at once."""
        result = FetchResult()
        for _answered, part in self.fetch_each(queries):
            result.add(part)
        return result

    def listing(self, name: str, fetch: Callable[[], list[PaperRecord]]) -> list[PaperRecord]:
        """The records of listing `name`, fetched once per run when the source has a scope."""
        if not self.listing_scope:
            return fetch()
        return shared_listing(self._listing_key(name), fetch)

    def has_listing(self, name: str) -> bool:
        """Whether another batch of this run already fetched listing `name`."""
        return bool(self.listing_scope) and listing_is_shared(self._listing_key(name))

    def _listing_key(self, name: str) -> str:
        return f"{self.listing_scope}:{self.name}:{name}"

    # -- HTTP ----------------------------------------------------------------------------------

    def _session(self) -> requests.Session:
        retry = _PoliteRetry(
            total=sync_setting("SYNC_RETRIES"),
            backoff_factor=sync_setting("SYNC_BACKOFF_FACTOR"),
            backoff_jitter=sync_setting("SYNC_BACKOFF_FACTOR"),
            status_forcelist=(429, 500, 502, 503, 504),
            allowed_methods=frozenset({"GET", "POST"}),  # POST here is a read (batch lookups)
            retry_after_max=sync_setting("SYNC_RETRY_AFTER_MAX"),
            raise_on_status=False,
        )
        retry.rate_limit = self.rate_limit
        session = requests.Session()
        adapter = _PoliteAdapter(max_retries=retry)
        adapter.rate_limit = self.rate_limit
        session.mount("http://", adapter)
        session.mount("https://", adapter)
        contact = settings.SYNC_CONTACT_EMAIL
        agent = "research-digests-sync/1.0"
        session.headers["User-Agent"] = f"{agent} (mailto:{contact})" if contact else agent
        session.headers["Accept"] = "application/json"
        return session

    def get_json(
        self,
        path: str,
        *,
        params: dict | None = None,
        method: str = "GET",
        body: Any = None,
        headers: dict | None = None,
        missing_ok: bool = False,
    ) -> Any:
        """JSON from `base_url + path`, through the breaker; anything else is a SourceError."""
        try:
            return self.breaker.call(self._request, method, path, params, body, headers, missing_ok)
        except pybreaker.CircuitBreakerError as error:
            raise SourceError(f"{self.name}: circuit open after repeated failures") from error

    def _request(self, method, path, params, body, headers, missing_ok) -> Any:
        url = f"{self.base_url}{path}"
        self.requests_made += 1
        try:
            response = self.session.request(
                method,
                url,
                params=params,
                json=body,
                headers=headers,
                timeout=sync_setting("SYNC_TIMEOUT"),
            )
        except SourceError:
            raise
        except requests.exceptions.RetryError as error:
            raise SourceError(
                f"{self.name}: gave up after retries ({error})", retry_later=True
            ) from error
        except requests.exceptions.RequestException as error:
            if isinstance(error.__context__, SourceError):
                raise error.__context__ from error
            raise SourceError(
                f"{self.name}: {type(error).__name__}: {error}", retry_later=True
            ) from error
        if missing_ok and response.status_code == 404:
            return None
        if response.status_code >= 400:
            raise SourceError(
                f"{self.name}: HTTP {response.status_code} for {path}",
                retry_later=response.status_code == 429 or response.status_code >= 500,
            )
        content_type = response.headers.get("Content-Type", "")
        if "json" not in content_type:
            raise SourceError(f"{self.name}: expected JSON, got {content_type or 'no type'}")
        try:
            return response.json()
        except (ValueError, json.JSONDecodeError) as error:
            raise SourceError(f"{self.name}: malformed JSON ({error})") from error


def chunks(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def as_list(value: Any) -> list:
    """DBLP and others send one item as an object and several as a list."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
