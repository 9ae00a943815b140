"""What every source shares: the record it returns, its errors, and polite JSON over HTTP."""

from __future__ import annotations

import datetime
import json
import logging
import re
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import pybreaker
import requests
from django.conf import settings

from ..conf import sync_setting
from ..errors import SourceError
from ..listings import listing_is_shared, shared_listing
from ..matching import RecordIndex, best_match
from ..politeness import breaker_for, rate_limit_for
from ..text import person_name_parts
from .http import RetryAfterTooLong, polite_session

if TYPE_CHECKING:
    from ..identifiers import Identifier

logger = logging.getLogger(__name__)
# What a record of an unexpected shape raises while it is read.
UNREADABLE = (TypeError, AttributeError, KeyError, ValueError, IndexError)


@dataclass(frozen=True)
class AuthorRecord:
    name: str
    given: str = ""
    family: str = ""
    orcid: str = ""
    affiliations: tuple[str, ...] = ()

    @classmethod
    def person(cls, name: str, **fields: Any) -> AuthorRecord:
        """A person a source names whole: given and family split from the name, so that
        citations print them as a person's (a name without parts is cited as an
        organisation's: BibTeX `{Sofia Okafor}`, CSL `literal`)."""
        given, family = person_name_parts(name)
        return cls(name=name, given=given, family=family, **fields)


@dataclass(frozen=True)
class NoticeRecord:
    """One update notice a source lists for a work (Crossref `updated-by`)."""

    doi: str
    type: str  # lower case, `_` for `-`: retraction, correction, expression_of_concern, ...
    label: str
    source: str  # publisher | retraction-watch | openalex
    record_id: str = ""
    date: datetime.date | None = None


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
    urls: tuple[str, ...] = ()  # every electronic edition the source lists (DBLP's `ee`)
    # None: the source says nothing of notices; []: it says there are none.
    notices: list[NoticeRecord] | None = None
    is_retracted: bool | None = None  # OpenAlex's flag; None when the source has none
    version_of_record_doi: str = ""  # a preprint's published version, as the source relates them
    preprint_doi: str = ""  # a published work's preprint, as the source relates them


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

    def match(
        self, queries: Iterable[PaperQuery], find: Callable[[PaperQuery], PaperRecord | None]
    ) -> None:
        """Each of `queries` gets the record `find` picks for it, if it picks one."""
        for query in queries:
            record = find(query)
            if record is not None:
                self.records[query.paper_id] = record

    def fail(self, queries: Iterable[PaperQuery], error: Exception) -> None:
        """Every paper of `queries` gets `error`; a SourceError that says so also retries later."""
        for query in queries:
            self.errors[query.paper_id] = str(error)
            if getattr(error, "retry_later", False):
                self.retry_later.add(query.paper_id)


class Source:
    """A bibliographic source. Subclasses implement `fetch_each` (and batch inside it).

    `listing_scope` names the run a source works for: listings (a proceedings' table of
    contents) are then fetched once per run and shared by all its batches; without one, each
    `fetch` asks afresh. `count_request(name)` is called just before each request (each
    attempt) goes out, as `requests_made` grows. `fail_fast` is for a person waiting on the
    answer (an editor's lookup): a connection that cannot be made is not retried.
    """

    label = ""

    def __init__(
        self,
        *,
        name: str,
        options: dict[str, Any],
        listing_scope: str = "",
        count_request: Callable[[str], None] | None = None,
        fail_fast: bool = False,
    ):
        self.name = name
        self.options = options
        self.listing_scope = listing_scope
        self.count_request = count_request
        self.base_url = options.get("base_url", "").rstrip("/")
        self.requests_made = 0
        self.records_skipped = 0
        self.rate_limit = rate_limit_for(name)
        self.breaker = breaker_for(name)
        self.session = polite_session(self.rate_limit, on_sending=self.sending, fail_fast=fail_fast)

    def sending(self) -> None:
        """A request (or a retry of one) is about to go out: count it."""
        self.requests_made += 1
        if self.count_request is not None:
            self.count_request(self.name)

    def fetch_each(self, queries: list[PaperQuery]) -> Iterator[tuple[list[int], FetchResult]]:
        """What each request found, as it comes: the papers it answered for, and its result.

        Papers the source does not ask about need not be named; when the iterator ends the
        source is done with all of `queries`. Naming them first (with an empty result) lets a
        batch write them while the source still asks about others, rather than after.
        """
        raise NotImplementedError

    def fetch(self, queries: list[PaperQuery]) -> FetchResult:
        """Every answer at once."""
        result = FetchResult()
        for _answered, part in self.fetch_each(queries):
            result.add(part)
        return result

    def resolve(self, identifier: Identifier) -> list[PaperRecord]:
        """The records this source holds for what an editor typed (sync/lookup.py): the work an
        id names, or a title's candidates. [] when the source cannot look up that kind."""
        return []

    def found_in(
        self,
        queries: list[PaperQuery],
        fetch: Callable[[], list[PaperRecord]],
        *,
        indexed: bool = True,
    ) -> FetchResult:
        """Each of `queries` matched among the records `fetch()` returns: a listing through a
        RecordIndex, a search's few hits by `best_match`; a SourceError fails them all."""
        result = FetchResult()
        try:
            records = fetch()
        except SourceError as error:
            result.fail(queries, error)
            return result
        if indexed:
            result.match(queries, RecordIndex(records).find)
        else:
            result.match(queries, lambda query: best_match(query, records))
        return result

    @contextmanager
    def shape_checked(self) -> Iterator[None]:
        """Reading an answer of another shape than documented is a SourceError, never retried
        later (the same answer would come back)."""
        try:
            yield
        except UNREADABLE as error:
            raise SourceError(
                f"{self.display_name}: unexpected response shape ({error})"
            ) from error

    def polite_params(self, **params: Any) -> dict[str, Any]:
        """`params` with the contact address that routes requests to a polite pool."""
        if settings.SYNC_CONTACT_EMAIL:
            params["mailto"] = settings.SYNC_CONTACT_EMAIL
        return params

    def parse_all(
        self, items: Iterable[Any], parse: Callable[[Any], PaperRecord | None]
    ) -> list[PaperRecord]:
        """Each item read on its own: one that cannot be read is skipped and counted
        (`records_skipped`), never fatal to the others of its answer."""
        records = []
        for item in items:
            try:
                record = parse(item)
            except UNREADABLE as error:
                self.records_skipped += 1
                logger.warning("%s: skipped a record it could not read (%r)", self.name, error)
                continue
            if record is not None:
                records.append(record)
        return records

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
            minutes = max(1, round(sync_setting("SYNC_BREAKER_RESET_TIMEOUT") / 60))
            raise SourceError(
                f"{self.display_name} was not asked: it failed repeatedly, so it is skipped "
                f"for {minutes} min (circuit open)",
                retry_later=True,
            ) from error

    def _request(self, method, path, params, body, headers, missing_ok) -> Any:
        url = f"{self.base_url}{path}"
        try:
            response = self.session.request(
                method,
                url,
                params=params,
                json=body,
                headers=headers,
                timeout=sync_setting("SYNC_TIMEOUT"),
            )
        except RetryAfterTooLong as error:
            raise SourceError(f"{self.display_name} {error}", retry_later=True) from error
        except SourceError:
            raise
        except requests.exceptions.RequestException as error:
            if isinstance(error.__context__, RetryAfterTooLong):
                raise SourceError(
                    f"{self.display_name} {error.__context__}", retry_later=True
                ) from error
            if isinstance(error.__context__, SourceError):
                raise error.__context__ from error
            raise SourceError(
                f"{self.display_name} {describe_failure(error)}", retry_later=True
            ) from error
        if missing_ok and response.status_code == 404:
            return None
        if response.status_code >= 400:
            raise SourceError(
                f"{self.display_name} answered HTTP {response.status_code} for {path}",
                retry_later=response.status_code == 429 or response.status_code >= 500,
            )
        content_type = response.headers.get("Content-Type", "")
        if "json" not in content_type:
            raise SourceError(
                f"{self.display_name} sent {content_type or 'an untyped answer'} "
                f"instead of JSON for {path}"
            )
        try:
            return response.json()
        except (ValueError, json.JSONDecodeError) as error:
            raise SourceError(
                f"{self.display_name} sent malformed JSON for {path} ({error})"
            ) from error

    @property
    def display_name(self) -> str:
        return self.label or self.name


_ATTEMPTS = re.compile(r"too many (\d{3}) error responses")


def describe_failure(error: requests.exceptions.RequestException) -> str:
    """What went wrong with a request, as a sentence's predicate ("could not be reached").

    The one description of a failed request: a sync's errors and an editor's lookup both
    name a source's failure with it."""
    attempts = _attempts(error)
    text = str(error)
    if isinstance(error, requests.exceptions.RetryError):
        status = _ATTEMPTS.search(text)
        answer = f"HTTP {status.group(1)}" if status else "errors"
        return f"kept answering {answer} ({attempts})"
    if isinstance(error, requests.exceptions.Timeout):
        return f"did not answer in time ({attempts})"
    if isinstance(error, requests.exceptions.ConnectionError):
        for needle, reason in (
            ("refused", "connection refused"),
            ("resolve", "its name did not resolve"),
            ("Name or service", "its name did not resolve"),
            ("reset", "connection reset"),
            ("timed out", "connection timed out"),
        ):
            if needle in text:
                return f"could not be reached ({reason}, {attempts})"
        return f"could not be reached ({attempts})"
    return f"failed: {type(error).__name__}"


def _attempts(error: requests.exceptions.RequestException) -> str:
    """How many times the request was tried ("4 attempts"), as its retry policy counted them:
    fewer than 1 + SYNC_RETRIES when it failed fast (sources/http.py)."""
    cause = error.args[0] if error.args else None
    count = getattr(cause, "attempts", None) or 1 + sync_setting("SYNC_RETRIES")
    return "1 attempt" if count == 1 else f"{count} attempts"


def chunks(items: list, size: int) -> Iterable[list]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def as_list(value: Any) -> list:
    """DBLP and others send one item as an object and several as a list."""
    if value is None:
        return []
    return value if isinstance(value, list) else [value]
