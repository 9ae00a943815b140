"""Sync settings with their defaults, read in one place so modules never repeat them.

The five that say how fast a sync heals (SYNC_LEASE_SECONDS, SYNC_QUEUED_LEASE,
SYNC_RECOVER_INTERVAL, SYNC_STALE_RUN_AFTER, SYNC_LOCK_TTL) are read from the environment in
cms/settings/base.py, where beat's schedule needs one; they have no second default here.
"""

from __future__ import annotations

from django.conf import settings

# Which source wins for each field, first first. DBLP curates titles and author order by hand;
# OpenAlex links authors to institutions; Crossref carries publisher-deposited ORCIDs/abstracts.
DEFAULT_PRECEDENCE: dict[str, list[str]] = {
    "title": ["dblp", "crossref", "openalex", "semanticscholar"],
    "authors": ["dblp", "crossref", "openalex", "semanticscholar"],
    "affiliations": ["openalex", "crossref"],
    "orcid": ["crossref", "openalex"],
    "abstract": ["crossref", "semanticscholar", "openalex"],
    "links": ["crossref", "dblp", "openalex", "semanticscholar"],
    "doi": ["crossref", "dblp", "openalex", "semanticscholar"],
    "dblp_key": ["dblp", "semanticscholar"],
    "openalex_id": ["openalex"],
    "semantic_scholar_id": ["semanticscholar"],
    "arxiv_id": ["semanticscholar", "openalex", "dblp"],
    # A published work's preprint: Crossref's `has-preprint` relation (or a preprint's own DOI),
    # OpenAlex's repository location.
    "preprint_doi": ["crossref", "openalex", "semanticscholar"],
    # Update notices: Crossref's `updated-by` (publishers, Retraction Watch), then OpenAlex's
    # `is_retracted` flag for what Crossref does not hold (merge.plan_notices).
    "notices": ["crossref", "openalex"],
}

DEFAULTS = {
    "SYNC_FIELD_PRECEDENCE": DEFAULT_PRECEDENCE,
    # Seconds an editor's lookup by identifier (sync/lookup.py) waits for the sources in all;
    # the sources that have not answered by then are named, and the rest is shown.
    "SYNC_LOOKUP_TIMEOUT": 15.0,
    "SYNC_TIMEOUT": (5.0, 20.0),  # connect, read (seconds) for every request
    "SYNC_RETRIES": 4,  # per request, on 429/5xx/timeouts, with exponential backoff + jitter
    "SYNC_BACKOFF_FACTOR": 0.5,
    "SYNC_RETRY_AFTER_MAX": 120,  # a longer Retry-After makes the paper "retry later" instead
    # Seconds added to each limit's period when pacing requests (see politeness.py), for what
    # the network adds between our socket and the source's: 5/s allows 5 in any 1.05 s.
    "SYNC_RATE_MARGIN": 0.05,
    "SYNC_BREAKER_FAIL_MAX": 5,
    "SYNC_BREAKER_RESET_TIMEOUT": 300,
    # Papers per sync task; sources batch within it. Semantic Scholar's batch endpoint takes
    # 500 ids and allows one request a second, so a smaller task would spend its requests on
    # fractions of a batch.
    "SYNC_BATCH_SIZE": 500,
    "SYNC_WRITE_CHUNK": 50,  # papers written per transaction
    "SYNC_LISTING_TTL": 2 * 3600,  # seconds a run's shared listing stays in the cache
    # Seconds a process waits for another one fetching a listing; the fetching process holds
    # its lock for SYNC_LOCK_TTL seconds and renews it while it lives, so a dead one is not
    # waited on longer than that.
    "SYNC_LISTING_WAIT": 300,
    # Seconds the pacer waits for Redis to answer again before a request counts as failed.
    "SYNC_REDIS_WAIT": 120,
    # A venue's year is listed (one request for up to 1,000 papers) instead of matching titles
    # one by one when at least this many papers of it need a title lookup.
    "SYNC_LISTING_MIN_PAPERS": 10,
    "SYNC_TASK_SOFT_TIME_LIMIT": 600,  # both below the broker's visibility timeout
    "SYNC_TASK_TIME_LIMIT": 660,
    "SYNC_RETRY_BASE_DELAY": 15 * 60,  # not_before after the first failure, doubling
    "SYNC_DBLP_STREAMS": {
        "SIGCOMM": "conf/sigcomm/sigcomm{year}",
        "NSDI": "conf/nsdi/nsdi{year}",
        "ISCA": "conf/isca/isca{year}",
        "EuroSys": "conf/eurosys/eurosys{year}",
    },
    "SYNC_VENUES_WITHOUT_DOIS": ["NSDI"],  # USENIX does not register DOIs with Crossref
    # Semantic Scholar's name (its `venue` field) of venues whose papers have no DOI: their
    # year is listed with one bulk search instead of matching titles one by one. (The `venue`
    # filter is comma-separated, so a name with commas cannot be given.)
    "SYNC_SEMANTIC_SCHOLAR_VENUES": {
        "NSDI": "Symposium on Networked Systems Design and Implementation",
    },
}


def sync_setting(name: str):
    return getattr(settings, name, DEFAULTS[name])


def precedence(field: str) -> list[str]:
    table = {**DEFAULT_PRECEDENCE, **sync_setting("SYNC_FIELD_PRECEDENCE")}
    return table[field]


def rate_limits() -> dict[str, str]:
    """`SYNC_RATE_LIMITS` ("crossref=5/s,dblp=1/s") as {source: "5/second"} for `limits`."""
    units = {"s": "second", "m": "minute", "h": "hour", "d": "day"}
    result: dict[str, str] = {}
    for part in settings.SYNC_RATE_LIMITS.split(","):
        if not part.strip():
            continue
        name, _, value = part.partition("=")
        amount, _, unit = value.strip().partition("/")
        if not name.strip() or not amount.strip().isdigit() or not unit:
            raise ValueError(f"SYNC_RATE_LIMITS: cannot read {part.strip()!r}, want name=N/s")
        result[name.strip()] = f"{amount.strip()}/{units.get(unit.strip(), unit.strip())}"
    return result
