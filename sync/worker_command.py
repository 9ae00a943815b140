"""The `python -m sync.worker` command line the integration tests and the benchmark start.

It is deploy's worker (deploy/systemd/cms-worker@.service, deploy/compose.yaml: the prefork
pool, the default) apart from the queue, the concurrency and the node name, and the three
`--without-*` flags: a worker alone on a queue of its own has no peers to exchange state or
events with, so it skips that, starts sooner and sends the broker less. deploy/smoke/ builds
its own command on purpose, as production starts it.
"""

from __future__ import annotations

import sys


def celery_worker_command(
    *, queue: str, concurrency: int, hostname: str | None = None, loglevel: str = "INFO"
) -> list[str]:
    """The argv of a worker on `queue`; `hostname` names the node (Celery's default without)."""
    command = [
        sys.executable,
        "-m",
        "sync.worker",
        f"--loglevel={loglevel}",
        f"--concurrency={concurrency}",
        f"--queues={queue}",
    ]
    if hostname is not None:
        command.append(f"--hostname={hostname}")
    return [*command, "--without-gossip", "--without-mingle", "--without-heartbeat"]
