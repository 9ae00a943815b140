"""A real local webhook receiver: an HTTP server thread that verifies every request with the
`standardwebhooks` library, as a front end would, and answers as each test scripts it."""

from __future__ import annotations

import json
import ssl
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from standardwebhooks import Webhook, WebhookVerificationError


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes
    at: float
    verified: dict[str, Any] | None  # the payload, when a secret verified it
    error: str = ""

    @property
    def webhook_id(self) -> str:
        return self.headers["webhook-id"]


@dataclass
class Reply:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0  # seconds before answering (a slow or hanging receiver)
    body: str = "ok"
    body_delay: float = 0.0  # seconds between the headers and the body (a dripping answer)


class Receiver:
    """Start with a list of secrets it accepts; `replies` are used in order, then 200s. It
    listens on `host`:`port` (any free port by default), over TLS when given `tls` (an
    `ssl.SSLContext` for a server)."""

    def __init__(
        self,
        secrets: list[str] | None = None,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        tls: ssl.SSLContext | None = None,
    ):
        self.secrets = list(secrets or [])
        self.replies: list[Reply] = []
        self.received: list[Received] = []
        self.release = threading.Event()  # a Reply with delay=-1 waits for this
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("content-length") or 0))
                headers = {key.lower(): value for key, value in self.headers.items()}
                receiver.received.append(receiver.verify(headers, body))
                reply = receiver.replies.pop(0) if receiver.replies else Reply()
                if reply.delay < 0:
                    receiver.release.wait(30)
                else:
                    time.sleep(reply.delay)
                try:
                    self.send_response(reply.status)
                    for key, value in reply.headers.items():
                        self.send_header(key, value)
                    self.send_header("content-length", str(len(reply.body.encode())))
                    self.end_headers()
                    self.wfile.flush()
                    time.sleep(reply.body_delay)
                    self.wfile.write(reply.body.encode())
                except OSError:
                    pass  # the sender gave up (timed out) or was killed

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer((host, port), Handler)
        if tls is not None:
            self.server.socket = tls.wrap_socket(self.server.socket, server_side=True)
        self.server.daemon_threads = True
        self.host, self.port = host, self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/revalidate"

    def verify(self, headers: dict[str, str], body: bytes) -> Received:
        error = ""
        for secret in self.secrets:
            try:
                payload = Webhook(secret).verify(body, headers)
                return Received(headers, body, time.monotonic(), payload)
            except WebhookVerificationError as failure:
                error = str(failure)
        return Received(headers, body, time.monotonic(), None, error or "no secret")

    def payloads(self) -> list[dict[str, Any]]:
        """Every verified payload; fails if any request did not verify."""
        bad = [r for r in self.received if r.verified is None]
        assert not bad, [(r.error, r.headers) for r in bad]
        return [r.verified for r in self.received]

    def raw_json(self) -> list[dict[str, Any]]:
        return [json.loads(r.body) for r in self.received]

    def start(self) -> Receiver:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
