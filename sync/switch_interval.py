"""A shorter interpreter switch interval in every worker pool process (connected in apps.py)."""

import sys


def hand_the_lock_over_sooner(**_kwargs: object) -> None:
    """A sync task's threads wait on the sources while its main thread merges and writes;
    each time a waiting thread wakes it needs the interpreter lock, which the busy thread
    hands over only every switch interval (5 ms by default) - a few times per request, enough
    to slow the slowest source's pace. 1 ms keeps the sources on time at a small cost."""
    sys.setswitchinterval(0.001)
