"""A local stand-in for the bibliographic sources, 20 ms away, that logs every request.

It answers the paths the sync clients call (Crossref and OpenAlex `/works`, DBLP
`/search/publ/api`, Semantic Scholar `/graph/v1/paper/batch` and `/search/match`) with valid,
empty results, each source under its own path prefix so one server stands in for all four;
what it measures is how many requests a sync makes and how they are spread over time.
"""

from __future__ import annotations

import json
import threading
import time
from collections import defaultdict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LATENCY_S = 0.020

_EMPTY = {
    "crossref": {"status": "ok", "message": {"items": [], "total-results": 0}},
    "openalex": {"meta": {"count": 0}, "results": []},
    "dblp": {"result": {"hits": {"@total": "0", "@sent": "0", "hit": []}}},
    "semanticscholar": [],
}


class Upstream:
    """Threaded HTTP server on 127.0.0.1; `base_url(source)` is what a client is pointed at."""

    def __init__(self) -> None:
        self.requests: dict[str, list[float]] = defaultdict(list)
        self._lock = threading.Lock()
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                return None

            def _answer(self) -> None:
                source = self.path.strip("/").split("/", 1)[0]
                with upstream._lock:
                    upstream.requests[source].append(time.monotonic())
                length = int(self.headers.get("Content-Length") or 0)
                if length:
                    self.rfile.read(length)
                time.sleep(LATENCY_S)
                body = json.dumps(_EMPTY.get(source, {})).encode()
                status = 200
                if source == "semanticscholar" and "/search/match" in self.path:
                    status, body = 404, b'{"error": "Title match not found"}'
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = _answer
            do_POST = _answer

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> Upstream:
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def base_url(self, source: str) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/{source}"

    def busiest_second(self, source: str) -> int:
        """Most requests to `source` inside any one-second sliding window."""
        times = sorted(self.requests.get(source, []))
        best, start = 0, 0
        for end, moment in enumerate(times):
            while moment - times[start] >= 1.0:
                start += 1
            best = max(best, end - start + 1)
        return best
