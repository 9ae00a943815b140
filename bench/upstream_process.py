"""The stand-in upstream in a process of its own, as the real sources are other machines.

In the benchmark's own process the arrival times it logs would wait on the benchmark's threads
(the memory sampler, the run poller) for the interpreter lock and read later than the requests
came; on its own it stamps them as they arrive.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Sequence

from tests.standin import SOURCES


def _serve(numbers: Sequence[int], latency: float, connection) -> None:
    from tests.standin import Upstream

    from .synthetic_papers import synthetic_paper
    from .upstream_catalog import flip_notices, synthetic_catalog

    papers = [synthetic_paper(number) for number in numbers]
    catalog = synthetic_catalog(papers)
    with Upstream(catalog, latency=latency) as upstream:
        connection.send(upstream.server.server_address[1])
        while (message := connection.recv()) != "stop":
            if message == "arrivals":
                connection.send({s: [e.at for e in upstream.requests_to(s)] for s in SOURCES})
            elif message == "flip-notices":
                connection.send(flip_notices(catalog, papers))


class UpstreamProcess:
    """`with UpstreamProcess(numbers, latency=0.02) as upstream:` then `upstream.url(source)`."""

    def __init__(self, numbers: Sequence[int], *, latency: float):
        self.numbers, self.latency = list(numbers), latency

    def __enter__(self) -> UpstreamProcess:
        context = multiprocessing.get_context("spawn")  # nothing of this process's state
        self._connection, child = context.Pipe()
        self._process = context.Process(
            target=_serve, args=(self.numbers, self.latency, child), daemon=True
        )
        self._process.start()
        if not self._connection.poll(120):
            raise RuntimeError("the stand-in upstream did not start")
        self.port = self._connection.recv()
        return self

    def __exit__(self, *exc) -> None:
        self._connection.send("stop")
        self._process.join(timeout=10)
        if self._process.is_alive():
            self._process.kill()

    def url(self, source: str) -> str:
        return f"http://127.0.0.1:{self.port}/{source}"

    def arrivals(self) -> dict[str, list[float]]:
        """Every request's arrival time (time.time()), per source."""
        self._connection.send("arrivals")
        return self._connection.recv()

    def flip_notices(self) -> int:
        """Switch 1% of the papers' update notices upstream (upstream_catalog.flip_notices);
        how many papers were switched."""
        self._connection.send("flip-notices")
        return self._connection.recv()
