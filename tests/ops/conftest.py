import os
import socket

import pytest


@pytest.fixture
def redis_url() -> str:
    """The Redis the suite may use (CI starts one on the default port)."""
    return os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


@pytest.fixture
def closed_port() -> int:
    """A local TCP port nothing listens on: connections to it are refused at once."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]
