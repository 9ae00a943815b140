"""`python -m deploy.smoke` (`make smoke`): one smoke run; exit status 0 when everything held."""

from __future__ import annotations

import os
import sys
import time

from .checks import Checks
from .deployment import DEFAULT_REDIS_URL, Deployment, database_server_url
from .runner import ignore_signals, interrupt_on_signals, run_cleanup, run_steps


def main() -> int:
    started = time.monotonic()
    interrupt_on_signals()
    deployment = Deployment(
        database_server_url(), os.environ.get("SMOKE_REDIS_URL", DEFAULT_REDIS_URL)
    )
    print(
        f"smoke: cms.settings.production on PostgreSQL {deployment.database}, "
        f"{deployment.redis_url}",
        flush=True,
    )
    failure = run_steps([*deployment.bring_up(), *Checks(deployment).steps()])
    if failure:
        deployment.print_logs()
    ignore_signals()
    problems = [failure] if failure else []
    problems += run_cleanup(deployment.take_down())
    for problem in problems:
        print(f"smoke test FAILED: {problem}", flush=True)
    if problems:
        return 1
    print(f"smoke test passed in {time.monotonic() - started:.0f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
