"""A local stand-in for the four sources, serving the recorded responses in tests/fixtures/.

It answers the same paths as the real APIs under /<source>/ (so each source's base URL is
`http://127.0.0.1:PORT/<source>`), assembles list answers from the recorded items the way the
real API would (only the DOIs asked for; `null` for unknown ids in a Semantic Scholar batch),
logs every request with its arrival time, and can be told to misbehave.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict, deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SOURCES = ("dblp", "crossref", "openalex", "semanticscholar")


def load(relative: str):
    return json.loads((FIXTURES / relative).read_text(encoding="utf-8"))


def _norm(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


@dataclass
class Canned:
    status: int = 200
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict | None = None
    delay: float = 0.0


@dataclass
class Logged:
    source: str
    method: str
    path: str
    query: dict
    at: float
    fault: int = 0  # the status of the canned fault served, if one was


class Upstream:
    def __init__(self):
        self.log: list[Logged] = []
        self.faults: dict[str, deque[Canned]] = defaultdict(deque)
        self.transform = None  # optional callable(source, data) -> data, to vary a record
        self.slow: dict[str, float] = {}  # seconds to wait before each answer, per source
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    # -- control -------------------------------------------------------------------------------

    def __enter__(self) -> Upstream:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def url(self, source: str) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/{source}"

    def fail_next(self, source: str, *canned: Canned) -> None:
        self.faults[source].extend(canned)

    def requests_to(self, source: str) -> list[Logged]:
        return [entry for entry in self.log if entry.source == source]

    # -- answers -------------------------------------------------------------------------------

    def answer(self, source: str, method: str, path: str, query: dict, body: bytes) -> Canned:
        handler = getattr(self, f"_{source}")
        status, data = handler(method, path, query, body)
        if self.transform is not None and status == 200:
            data = self.transform(source, data)
        return Canned(status=status, body=json.dumps(data).encode(), delay=self.slow.get(source, 0))

    def _dblp(self, method, path, query, body):
        q = query.get("q", [""])[0]
        if q.startswith("toc:db/conf/"):
            name = q.split("/")[-1].split(".bht")[0]
            file = FIXTURES / "dblp" / f"toc_{name}.json"
            return 200, load(f"dblp/{file.name}") if file.exists() else load("dblp/empty.json")
        return 200, load("dblp/search_swing.json") if "swing" in q.lower() else load(
            "dblp/empty.json"
        )

    def _crossref(self, method, path, query, body):
        recorded = load("crossref/works_sigcomm.json")
        items = recorded["message"]["items"]
        filters = query.get("filter", [""])[0].split(",")
        dois = {f.split(":", 1)[1].lower() for f in filters if f.startswith("doi:")}
        if dois:
            items = [item for item in items if item["DOI"].lower() in dois]
        else:
            wanted = _norm(query.get("query.bibliographic", [""])[0])
            items = [item for item in items if _norm(item["title"][0]) == wanted]
        recorded["message"]["items"] = items
        recorded["message"]["total-results"] = len(items)
        return 200, recorded

    def _openalex(self, method, path, query, body):
        flt = query.get("filter", [""])[0]
        if flt.startswith("doi:"):
            dois = {d.lower().removeprefix("https://doi.org/") for d in flt[4:].split("|")}
            recorded = load("openalex/works_by_doi.json")
            recorded["results"] = [
                w
                for w in recorded["results"]
                if w["doi"].removeprefix("https://doi.org/").lower() in dois
            ]
        elif "swing" in query.get("search", [""])[0].lower():
            recorded = load("openalex/search_swing.json")
        else:
            recorded = {
                "meta": {
                    "count": 0,
                    "db_response_time_ms": 5,
                    "page": 1,
                    "per_page": 5,
                    "groups_count": None,
                },
                "results": [],
                "group_by": [],
            }
        recorded["meta"]["count"] = len(recorded["results"])
        return 200, recorded

    def _semanticscholar(self, method, path, query, body):
        if path.endswith("/paper/batch") and method == "POST":
            papers = [p for p in load("semanticscholar/batch.json") if p]
            papers += load("semanticscholar/match_swing.json")["data"]
            known = {}
            for paper in papers:
                known[paper["paperId"]] = paper
                if paper["externalIds"].get("DOI"):
                    known["DOI:" + paper["externalIds"]["DOI"].lower()] = paper
            ids = json.loads(body or b"{}").get("ids", [])
            wanted = [i if not i.startswith("DOI:") else "DOI:" + i[4:].lower() for i in ids]
            return 200, [known.get(i) for i in wanted]
        if path.endswith("/paper/search/match"):
            match = load("semanticscholar/match_swing.json")
            if _norm(query.get("query", [""])[0]) == _norm(match["data"][0]["title"]):
                return 200, match
            return 404, load("semanticscholar/match_not_found.json")
        return 404, {"error": "Not found"}

    def _handler(self):
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # keep test output quiet
                return

            def _serve(self, method: str):
                parts = urlsplit(self.path)
                source, _, rest = parts.path.lstrip("/").partition("/")
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length) if length else b""
                query = parse_qs(parts.query)
                with upstream._lock:
                    fault = upstream.faults[source].popleft() if upstream.faults[source] else None
                    upstream.log.append(
                        Logged(
                            source,
                            method,
                            "/" + rest,
                            query,
                            time.time(),
                            fault.status if fault else 0,
                        )
                    )
                canned = fault or upstream.answer(source, method, "/" + rest, query, body)
                if canned.delay:
                    time.sleep(canned.delay)
                try:
                    self.send_response(canned.status)
                    self.send_header("Content-Type", canned.content_type)
                    self.send_header("Content-Length", str(len(canned.body)))
                    for name, value in (canned.headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(canned.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client timed out first, as a test wanted

            def do_GET(self):
                self._serve("GET")

            def do_POST(self):
                self._serve("POST")

        return Handler
