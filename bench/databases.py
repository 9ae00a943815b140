"""Throwaway PostgreSQL databases for benchmark runs: created on DATABASE_URL's server, dropped
afterwards (forcibly: a worker may still hold a connection)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def throwaway_postgres(database_url: str, prefix: str = "bench") -> Iterator[tuple[str, str]]:
    """Yield (url, name) of a fresh database on the server `database_url` points at."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(database_url)
    name = f"{prefix}_{uuid.uuid4().hex[:10]}"
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
        yield database_url.rsplit("/", 1)[0] + f"/{name}", name
    finally:
        with psycopg.connect(**admin) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
