"""Keeping something alive only as long as this process is: a thread that renews it.

Leases on papers and the lock on a shared listing are given short lifetimes and renewed every
third of that while their holder works, so when a worker is killed they run out within one
lifetime and nobody waits long on a dead holder.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable

from django.db import connection

logger = logging.getLogger(__name__)


class Renewer:
    """Call `renew()` every `interval` seconds in a daemon thread while the block runs.

    A failed renewal is logged and tried again next time (a lease not renewed only runs out,
    which hands the work to someone else: slower, never wrong). With `uses_database`, the
    thread's own database connection is closed when it stops.
    """

    def __init__(self, renew: Callable[[], None], interval: float, *, uses_database: bool = False):
        self.renew, self.interval, self.uses_database = renew, max(interval, 0.05), uses_database
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> Renewer:
        self._thread = threading.Thread(target=self._loop, daemon=True, name="sync-renewer")
        self._thread.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)

    def _loop(self) -> None:
        try:
            while not self._stop.wait(self.interval):
                try:
                    self.renew()
                except Exception:
                    logger.warning("renewal failed; trying again", exc_info=True)
        finally:
            if self.uses_database:
                connection.close()
