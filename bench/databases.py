"""Throwaway PostgreSQL databases for benchmark runs, created and dropped on the same server."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def throwaway_postgres(server_url: str, prefix: str = "bench_") -> Iterator[str]:
    """Create `<prefix><random>` on the server of `server_url`; yield its URL; drop it after.

    The drop forces other sessions off, so a benchmark server left running cannot keep it.
    """
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(server_url)
    name = f"{prefix}{uuid.uuid4().hex[:10]}"
    admin = dict(
        host=config["HOST"] or "127.0.0.1",
        port=config["PORT"] or 5432,
        user=config["USER"] or "postgres",
        password=config["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )
    with psycopg.connect(**admin) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with psycopg.connect(**admin) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
