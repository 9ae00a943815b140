"""Batched writes the ORM makes slow, and a lock that serialises transactions."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import connection as default_connection
from django.db import connections, router
from django.db.models import Model


def update_rows(model: type[Model], rows: Sequence[Model], fields: Sequence[str]) -> None:
    """UPDATE the named columns of `model`'s table for each of `rows`, by primary key.

    The SQL is the one an individual `save(update_fields=...)` runs, without its signals, sent
    as one `executemany` round trip. `bulk_update()` builds a CASE expression per row and field,
    which cost more than the rest of a sync batch.
    `rows` may be instances of a model inheriting `model`'s table (specific pages for Page).
    """
    if not rows:
        return
    connection = connections[router.db_for_write(model)]
    quote = connection.ops.quote_name
    columns = [model._meta.get_field(name) for name in fields]
    assignments = ", ".join(f"{quote(field.column)} = %s" for field in columns)
    sql = (
        f"UPDATE {quote(model._meta.db_table)} SET {assignments} "
        f"WHERE {quote(model._meta.pk.column)} = %s"
    )
    params = [
        [field.get_db_prep_save(getattr(row, field.attname), connection) for field in columns]
        + [row.pk]
        for row in rows
    ]
    with connection.cursor() as cursor:
        cursor.executemany(sql, params)


def serialize_transactions(name: str) -> None:
    """Hold a lock named `name` until the current transaction ends: another transaction asking
    for it waits until this one has committed, then sees what it wrote.

    For a check-then-create that no constraint can guard ("is there a paper with this title in
    this year?"): on PostgreSQL a transaction-scoped advisory lock; SQLite needs none, as this
    project's transactions begin IMMEDIATE, taking the database's write lock.
    """
    if not default_connection.in_atomic_block:
        raise RuntimeError("serialize_transactions() holds its lock until the transaction ends")
    if default_connection.vendor == "postgresql":
        with default_connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", [name])
