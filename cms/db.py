"""Batched writes the ORM makes slow."""

from __future__ import annotations

from collections.abc import Sequence

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
