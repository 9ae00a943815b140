"""The SQL of a stored listing's two queries, kept per content version and request shape.

Once its items are stored, what a listing costs is mostly Django building its queries: the public
condition, the filters, the count and the page of rows are assembled and compiled again for every
request (about 2 of its 4.5 ms on SQLite, 3 of 7 on PostgreSQL). Their SQL depends only on the
request's parameters, host and language and on the tree facts the content version stands for, so
the statements Django sent for one request are sent again, as they were, for the next request of
the same shape; the rows are always read afresh. Nothing maintained keeps compiled querysets
(Django compiles per execution), hence this.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import connection
from django.http import HttpRequest

from . import version

MAX_PLANS = 512  # request shapes per process and version: client input, so bounded


@dataclass(frozen=True)
class ListingPlan:
    count: tuple[str, tuple]
    rows: tuple[str, tuple]

    def run(self) -> tuple[int, list[tuple]]:
        with connection.cursor() as cursor:
            cursor.execute(*self.count)
            (total,) = cursor.fetchone()
            cursor.execute(*self.rows)
            return total, cursor.fetchall()


@dataclass
class Recorder:
    statements: list[tuple[str, tuple]] = field(default_factory=list)

    def __call__(self, execute, sql, params, many, context):
        self.statements.append((sql, tuple(params or ())))
        return execute(sql, params, many, context)


class ListingPlans:
    """Plans for the content version in force, keyed by request shape."""

    def __init__(self) -> None:
        self.version: str | None = None
        self.plans: dict[tuple, ListingPlan] = {}

    def forget(self) -> None:
        self.version, self.plans = None, {}

    def key(self, request: HttpRequest, language: str) -> tuple | None:
        """The request's shape, or None where plans may not be shared (inside a transaction,
        whose own writes the version does not reflect yet)."""
        if not version.shares_per_version_values():
            return None
        parameters = tuple(sorted((name, tuple(values)) for name, values in request.GET.lists()))
        in_force = version.current_content_version()
        return (in_force, connection.alias, request.get_host(), language, parameters)

    def get(self, key: tuple | None) -> ListingPlan | None:
        return self.plans.get(key) if key is not None else None

    @contextmanager
    def recording(self, key: tuple | None) -> Iterator[None]:
        """Keep the plan of the count and rows queries the block sends (when it sends just
        those two: a listing of `limit=0` reads no rows and is not kept)."""
        recorder = Recorder()
        with connection.execute_wrapper(recorder):
            yield
        statements = recorder.statements
        if key is None or len(statements) != 2 or "COUNT(" not in statements[0][0]:
            return
        in_force = key[0]
        if in_force != self.version or len(self.plans) >= MAX_PLANS:
            self.version, self.plans = in_force, {}  # the old version's plans go, or all
        self.plans[key] = ListingPlan(*statements)


plans = ListingPlans()
