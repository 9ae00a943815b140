"""`python -m sync.worker [celery worker options]`: the sync worker, as deploy/ starts it.

It runs Celery's own `worker` command (the same options, defaults and start-up as `celery -A
cms worker`) on the project's app (cms/celery.py), without loading the `celery` umbrella first.
That umbrella imports every sub-command, and `celery amqp` brings its interactive shell with it
(click-repl, prompt_toolkit, wcwidth): about 8 MB the worker never uses, loaded in its main
process before the pool forks, so every pool child holds the same pages again. On `make bench`'s
sync stage the worker's tree (main process + 1 pool child) was 14 MB smaller, idle and at peak.

What the umbrella alone offers is left out: its global options (-A, --broker, --workdir, ...;
the app is always `cms`, the rest comes from the settings) and monkey-patching for the
eventlet and gevent pools, which the sync's threads do not run on. `celery -A cms worker`
still works, with the extra memory.
"""

from __future__ import annotations

import sys

from celery.bin.base import CLIContext
from celery.bin.worker import worker

from cms.celery import app


def main(argv: list[str] | None = None) -> None:
    """Parse `argv` (default: the command line) as `celery worker` does, and run the worker."""
    worker.main(
        args=sys.argv[1:] if argv is None else argv,
        prog_name="python -m sync.worker",
        obj=CLIContext(app=app, no_color=False, workdir=None),
    )


if __name__ == "__main__":
    main()
