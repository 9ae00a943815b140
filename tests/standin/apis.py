"""How each API assembles its answer from a catalog, for the requests the sync clients send.

Envelopes and paging follow each API's documentation (and the recorded responses in
tests/fixtures/): DBLP `/search/publ/api` (`q`, `h`, `f`; a single hit comes as an object, no
`hit` key when nothing matched), Crossref `/works` (`filter=doi:A,doi:B` ORed, `updates:A,updates:B`
(the notices updating A or B, ORed alike), date filters, `query.bibliographic`, `rows`,
`select`; and `/works/<DOI>`, one work), OpenAlex `/works`
(`filter=doi:A|B`, `title.search:"phrase" OR "phrase"`, `publication_year:A-B`, `per-page`,
`page`, `select`; and `/works/<W id>` or `/works/doi:<DOI>`, one work) and Semantic Scholar
`/graph/v1` (`POST paper/batch` with `null` for unknown ids, `DOI:` and `ARXIV:` ids, and at
most 500 ids, `paper/search/match` answering 404 when nothing matches, `paper/search/bulk` with
`venue`, `year`, 1,000 papers a call and a continuation `token`). Searches match on whole words,
as the real engines do after tokenising; ranking is not imitated.
"""

from __future__ import annotations

import json
import re
from typing import Any
from urllib.parse import unquote

from .catalog import Catalog, bare_doi, words

Answer = tuple[int, Any]
_PHRASE = re.compile(r'"([^"]*)"')


def _param(query: dict[str, list[str]], name: str, default: str = "") -> str:
    return query.get(name, [default])[0]


def _contains(haystack: str, needle: str) -> bool:
    return bool(needle) and f" {needle} " in f" {haystack} "


def _all_words(haystack: str, needle: str) -> bool:
    return all(_contains(haystack, word) for word in needle.split())


def _select(record: dict[str, Any], fields: str, always: tuple[str, ...] = ()) -> dict[str, Any]:
    if not fields:
        return record
    wanted = {*always, *(name.strip() for name in fields.split(","))}
    return {key: value for key, value in record.items() if key in wanted}


def _years(value: str) -> tuple[int, int] | None:
    match = re.fullmatch(r"(\d{4})(?:-(\d{4}))?", value.strip())
    if not match:
        return None
    return int(match.group(1)), int(match.group(2) or match.group(1))


# -- DBLP --------------------------------------------------------------------------------------


def dblp(catalog: Catalog, method: str, path: str, query: dict, body: bytes) -> Answer:
    if path != "/search/publ/api":
        return 404, {"error": "not found"}
    q = _param(query, "q")
    toc = re.fullmatch(r"toc:db/(.+)\.bht:\*?", q.strip())
    if toc:
        hits = catalog.dblp.get(toc.group(1), [])
    else:
        wanted = words(q.replace("*", " "))
        hits = [hit for title, hit in catalog.dblp_words if _all_words(title, wanted)]
    first = int(_param(query, "f", "0") or 0)
    count = min(int(_param(query, "h", "30") or 30), 1000)
    sent = hits[first : first + count]
    envelope: dict[str, Any] = {
        "@total": str(len(hits)),
        "@computed": str(len(hits)),
        "@sent": str(len(sent)),
        "@first": str(first),
    }
    if sent:
        envelope["hit"] = sent[0] if len(sent) == 1 else sent
    return 200, {
        "result": {
            "query": q if q.endswith("*") else f"{q}*",
            "status": {"@code": "200", "text": "OK"},
            "time": {"@unit": "msecs", "text": "4.20"},
            "completions": {"@total": "0", "@computed": "0", "@sent": "0"},
            "hits": envelope,
        }
    }


# -- Crossref ----------------------------------------------------------------------------------


def _issued_year(work: dict[str, Any]) -> int | None:
    for key in ("issued", "published", "published-print", "published-online"):
        parts = (work.get(key) or {}).get("date-parts") or [[None]]
        if parts and parts[0] and isinstance(parts[0][0], int):
            return parts[0][0]
    return None


def crossref(catalog: Catalog, method: str, path: str, query: dict, body: bytes) -> Answer:
    if path.startswith("/works/"):  # one work by its DOI, or a 404 (Crossref's is plain text)
        work = catalog.crossref_by_doi.get(bare_doi(unquote(path.removeprefix("/works/"))))
        if work is None:
            return 404, {"status": "error", "message": "Resource not found."}
        return 200, {
            "status": "ok",
            "message-type": "work",
            "message-version": "1.0.0",
            "message": work,
        }
    if path != "/works":
        return 404, {"status": "error", "message": "not found"}
    dois, updated, since, until = [], [], None, None
    for part in filter(None, _param(query, "filter").split(",")):
        name, _, value = part.partition(":")
        if name == "doi":
            dois.append(bare_doi(value))
        elif name == "updates":
            updated.append(bare_doi(value))
        elif name == "from-pub-date":
            since = int(value[:4])
        elif name == "until-pub-date":
            until = int(value[:4])
        else:
            return 400, {"status": "failed", "message-type": "validation-failure", "message": []}
    if dois:
        items = [catalog.crossref_by_doi[doi] for doi in dois if doi in catalog.crossref_by_doi]
    elif updated:
        items = list({id(w): w for doi in updated for w in catalog.crossref_updates[doi]}.values())
    else:
        wanted = words(_param(query, "query.bibliographic"))
        items = [work for title, work in catalog.crossref_words if title == wanted]
    items = [
        work
        for work in items
        if (since is None or (_issued_year(work) or since) >= since)
        and (until is None or (_issued_year(work) or until) <= until)
    ]
    rows = min(int(_param(query, "rows", "20") or 20), 1000)
    offset = int(_param(query, "offset", "0") or 0)
    select = _param(query, "select")
    return 200, {
        "status": "ok",
        "message-type": "work-list",
        "message-version": "1.0.0",
        "message": {
            "facets": {},
            "total-results": len(items),
            "items": [_select(work, select) for work in items[offset : offset + rows]],
            "items-per-page": rows,
            "query": {
                "start-index": offset,
                "search-terms": _param(query, "query.bibliographic") or None,
            },
        },
    }


# -- OpenAlex ----------------------------------------------------------------------------------


def _openalex_filters(value: str) -> list[tuple[str, str]] | None:
    """`a:x,b:y` into pairs; commas inside quoted phrases do not split."""
    parts, depth, current = [], False, ""
    for char in value:
        if char == '"':
            depth = not depth
        if char == "," and not depth:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    pairs = []
    for part in filter(None, parts):
        name, sep, rest = part.partition(":")
        if not sep:
            return None
        pairs.append((name.strip(), rest))
    return pairs


def openalex(catalog: Catalog, method: str, path: str, query: dict, body: bytes) -> Answer:
    single = re.fullmatch(r"/works/(W\d+)", path, re.IGNORECASE)
    if single:  # the single-work endpoint: the Work object itself, or 404
        work = catalog.openalex_by_id.get(single.group(1).upper())
        if work is None:
            return 404, {"error": "Not found", "message": f"{single.group(1)} not found"}
        return 200, _select(work, _param(query, "select"))
    by_doi = re.fullmatch(r"/works/doi:(.+)", unquote(path), re.IGNORECASE)
    if by_doi:  # the single-work endpoint by DOI
        found = catalog.openalex_by_doi.get(bare_doi(by_doi.group(1)))
        if not found:
            return 404, {"error": "Not found", "message": f"{by_doi.group(1)} not found"}
        return 200, _select(found[0], _param(query, "select"))
    if path != "/works":
        return 404, {"error": "not found"}
    filters = _openalex_filters(_param(query, "filter"))
    if filters is None:
        return 403, {"error": "Invalid query parameters error.", "message": "bad filter"}
    works = list(catalog.openalex)
    for name, value in filters:
        if name == "doi":
            values = value.split("|")
            if len(values) > 100:
                return 403, {"error": "Invalid query parameters error.", "message": "max 100"}
            works = [w for doi in values for w in catalog.openalex_by_doi.get(bare_doi(doi), [])]
        elif name == "title.search":
            phrases = [words(p) for p in _PHRASE.findall(value)] or [words(value)]
            matcher = _contains if _PHRASE.search(value) else _all_words
            found = {
                id(w)
                for title, w in catalog.openalex_words
                if any(matcher(title, p) for p in phrases)
            }
            works = [w for w in works if id(w) in found]
        elif name == "publication_year":
            years = _years(value)
            if years is None:
                return 403, {"error": "Invalid query parameters error.", "message": value}
            works = [w for w in works if years[0] <= (w.get("publication_year") or 0) <= years[1]]
        else:
            return 403, {"error": "Invalid query parameters error.", "message": name}
    search = words(_param(query, "search"))
    if search:
        works = [w for w in works if _all_words(words(w.get("title")), search)]
    per_page = min(int(_param(query, "per-page", _param(query, "per_page", "25")) or 25), 200)
    page = int(_param(query, "page", "1") or 1)
    select = _param(query, "select")
    return 200, {
        "meta": {
            "count": len(works),
            "db_response_time_ms": 12,
            "page": page,
            "per_page": per_page,
            "groups_count": None,
        },
        "results": [_select(w, select) for w in works[(page - 1) * per_page : page * per_page]],
        "group_by": [],
    }


# -- Semantic Scholar --------------------------------------------------------------------------

BULK_PAGE = 1000


def semanticscholar(catalog: Catalog, method: str, path: str, query: dict, body: bytes) -> Answer:
    fields = _param(query, "fields")
    if path == "/graph/v1/paper/batch" and method == "POST":
        try:
            ids = json.loads(body or b"{}").get("ids", [])
        except ValueError:
            return 400, {"error": "Unacceptable request body"}
        if len(ids) > 500:
            return 400, {"error": "Batch size too large: at most 500 ids"}
        wanted = [_s2_id(i) for i in ids]
        papers = [catalog.s2_by_id.get(i) for i in wanted]
        return 200, [_select(p, fields, ("paperId",)) if p else None for p in papers]
    if path == "/graph/v1/paper/search/match":
        wanted = words(_param(query, "query"))
        found = next((p for title, p in catalog.s2_words if title == wanted), None)
        if found is None:
            return 404, {"error": "Title match not found"}
        return 200, {"data": [{**_select(found, fields, ("paperId",)), "matchScore": 212.5}]}
    if path == "/graph/v1/paper/search/bulk":
        papers = list(catalog.semanticscholar)
        venues = [words(v) for v in _param(query, "venue").split(",") if v.strip()]
        if venues:
            papers = [p for v in venues for p in catalog.s2_by_venue.get(v, [])]
        years = _years(_param(query, "year")) if _param(query, "year") else None
        if years:
            papers = [p for p in papers if years[0] <= (p.get("year") or 0) <= years[1]]
        text = words(_param(query, "query"))
        if text:
            papers = [p for p in papers if _all_words(words(p.get("title")), text)]
        start = int(_param(query, "token", "0") or 0)
        answer: dict[str, Any] = {
            "total": len(papers),
            "data": [_select(p, fields, ("paperId",)) for p in papers[start : start + BULK_PAGE]],
        }
        if start + BULK_PAGE < len(papers):
            answer["token"] = str(start + BULK_PAGE)
        return 200, answer
    return 404, {"error": "Not found"}


def _s2_id(value: str) -> str:
    """Semantic Scholar's ids as its batch endpoint reads them: prefixes in any case."""
    prefix, sep, rest = value.partition(":")
    if sep and prefix.upper() == "DOI":
        return "DOI:" + bare_doi(rest)
    if sep and prefix.upper() == "ARXIV":
        return "ARXIV:" + rest.lower()
    return value


HANDLERS = {
    "dblp": dblp,
    "crossref": crossref,
    "openalex": openalex,
    "semanticscholar": semanticscholar,
}
