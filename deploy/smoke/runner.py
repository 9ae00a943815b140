"""Steps on one line each, and how a failed or interrupted run reports."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable

Step = tuple[str, Callable[[], str | None]]


class StepFailed(Exception):
    """A check did not hold; the message says what was expected and what came instead."""


class Interrupted(BaseException):
    """SIGTERM or SIGINT arrived: stop the steps, but still clean up."""


def _interrupt(signum: int, _frame: object) -> None:
    raise Interrupted(signal.Signals(signum).name)


def interrupt_on_signals() -> None:
    """SIGTERM and SIGINT end the steps through `Interrupted`, so clean-up still runs."""
    signal.signal(signal.SIGTERM, _interrupt)
    signal.signal(signal.SIGINT, _interrupt)


def ignore_signals() -> None:
    """During clean-up: a second Ctrl-C or SIGTERM must not leave services behind."""
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_step(label: str, action: Callable[[], str | None]) -> str | None:
    """Run one step on one line; the problem as text, or None when it held."""
    print(f"{label} ... ", end="", flush=True)
    started = time.monotonic()
    try:
        detail = action()
    except StepFailed as error:
        problem = str(error)
    except Exception as error:  # an unexpected error still names its step
        problem = f"{type(error).__name__}: {error}"
    else:
        took = time.monotonic() - started
        print(f"ok ({took:.1f} s)" + (f": {detail}" if detail else ""), flush=True)
        return None
    print("FAILED\n" + "\n".join(f"    {line}" for line in problem.splitlines()), flush=True)
    return problem


def run_steps(steps: list[Step]) -> str | None:
    """Run the steps in order until one fails; what failed, or None."""
    try:
        for number, (title, action) in enumerate(steps, 1):
            problem = run_step(f"[{number:2d}/{len(steps)}] {title}", action)
            if problem:
                return f"step {number} ({title}): {problem}"
    except Interrupted as signal_name:
        print(f"\ninterrupted by {signal_name}", flush=True)
        return f"interrupted by {signal_name}"
    return None


def run_cleanup(actions: list[Step]) -> list[str]:
    """Run every clean-up action, whatever the others did; what failed."""
    failures = []
    for title, action in actions:
        problem = run_step(f"[stop ] {title}", action)
        if problem:
            failures.append(f"clean-up ({title}): {problem}")
    return failures
