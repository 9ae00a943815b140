"""The stand-in's HTTP side: one local server for the four sources, a request log, and faults.

Each source answers under its own path prefix (`http://127.0.0.1:PORT/<source>` is the base URL
a client is pointed at). Every request is logged with its arrival time, as the kernel stamped
the packet (SO_TIMESTAMPNS), not when a busy interpreter got round to reading it: that is what a
source's own limiter counts. A test can queue canned faults per source, slow a source down, or
rewrite answers, and the benchmark sets a latency for every request.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
import time
from collections import defaultdict, deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from .apis import HANDLERS
from .catalog import Catalog

SOURCES = ("dblp", "crossref", "openalex", "semanticscholar")
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)  # Linux; Python does not name it


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
    at: float  # time.time() on arrival
    fault: int = 0  # the status of the canned fault served, if one was


def pointed_at(upstream: Upstream, configured: dict) -> dict:
    """A SYNC_SOURCES setting like `configured` with every stand-in source's base URL on it."""
    return {
        name: {**config, "OPTIONS": {**config.get("OPTIONS", {}), "base_url": upstream.url(name)}}
        for name, config in configured.items()
        if name in SOURCES
    }


def busiest_window(times: list[float], seconds: float = 1.0) -> int:
    """Most of `times` within any window of `seconds` (sliding, not aligned to the clock)."""
    times = sorted(times)
    best = start = 0
    for end, moment in enumerate(times):
        while moment - times[start] >= seconds:
            start += 1
        best = max(best, end - start + 1)
    return best


class Upstream:
    """A threaded server on 127.0.0.1 answering from `catalog`; use it as a context manager."""

    def __init__(self, catalog: Catalog, *, latency: float = 0.0):
        self.catalog = catalog
        self.latency = latency  # seconds before every answer, as a distant server would take
        self.log: list[Logged] = []
        self.faults: dict[str, deque[Canned]] = defaultdict(deque)
        self.transform: Callable[[str, object], object] | None = None  # (source, data) -> data
        self.slow: dict[str, float] = {}  # extra seconds before each answer, per source
        self.answering = 0  # requests logged whose answer is not written yet
        self._lock = threading.Lock()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self.server.daemon_threads = True
        # On the listening socket too: a connection's first request may come in before its
        # handler runs, and the packets are stamped only if stamping was on when they came.
        with contextlib.suppress(OSError):
            self.server.socket.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
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
        with self._lock:
            return [entry for entry in self.log if entry.source == source]

    # -- answers -------------------------------------------------------------------------------

    def answer(self, source: str, method: str, path: str, query: dict, body: bytes) -> Canned:
        handler = HANDLERS.get(source)
        if handler is None:
            return Canned(404, b'{"error": "no such source"}')
        status, data = handler(self.catalog, method, path, query, body)
        if self.transform is not None and status == 200:
            data = self.transform(source, json.loads(json.dumps(data)))  # a copy to rewrite
        return Canned(status=status, body=json.dumps(data).encode(), delay=self.slow.get(source, 0))

    def _handler(self):
        upstream = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive, as the real APIs allow
            disable_nagle_algorithm = True  # headers and body go out at once, no 40 ms stall

            def log_message(self, *args):  # keep test and benchmark output quiet
                return

            def setup(self):
                super().setup()
                # Not on Linux: arrival times are read from the clock instead.
                with contextlib.suppress(OSError):
                    self.connection.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)

            def handle_one_request(self):
                self.arrived = self._arrival()
                super().handle_one_request()

            def _arrival(self) -> float:
                """When the next request's first packet came in (waits for it)."""
                try:
                    _data, ancillary, _flags, _address = self.connection.recvmsg(
                        1, socket.CMSG_SPACE(16), socket.MSG_PEEK
                    )
                except OSError:
                    return time.time()
                for level, kind, payload in ancillary:
                    if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS:
                        seconds, nanoseconds = struct.unpack("qq", payload[:16])
                        return seconds + nanoseconds / 1e9
                return time.time()

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
                            getattr(self, "arrived", None) or time.time(),
                            fault.status if fault else 0,
                        )
                    )
                    upstream.answering += 1
                try:
                    self._answer(fault or upstream.answer(source, method, "/" + rest, query, body))
                finally:
                    with upstream._lock:
                        upstream.answering -= 1

            def _answer(self, canned: Canned) -> None:
                if upstream.latency or canned.delay:
                    time.sleep(upstream.latency + canned.delay)
                try:
                    self.send_response(canned.status)
                    self.send_header("Content-Type", canned.content_type)
                    self.send_header("Content-Length", str(len(canned.body)))
                    for name, value in (canned.headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(canned.body)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client timed out first, as a test wanted

            def do_GET(self):
                self._serve("GET")

            def do_POST(self):
                self._serve("POST")

        return Handler
