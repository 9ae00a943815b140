"""Throwaway PostgreSQL databases for benchmark runs, created and dropped on the same server."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager


def admin_connection(server_url: str):
    """An autocommit connection to the server's `postgres` database, for CREATE/DROP DATABASE."""
    import dj_database_url
    import psycopg

    config = dj_database_url.parse(server_url)
    return psycopg.connect(
        host=config["HOST"] or "127.0.0.1",
        port=config["PORT"] or 5432,
        user=config["USER"] or "postgres",
        password=config["PASSWORD"] or None,
        dbname="postgres",
        autocommit=True,
    )


def copy_database(server_url: str, source: str, target: str) -> None:
    """Replace `target` with a copy of `source` (CREATE DATABASE ... TEMPLATE), on one server."""
    with admin_connection(server_url) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{target}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{target}" TEMPLATE "{source}"')


def database_exists(server_url: str, name: str) -> bool:
    with admin_connection(server_url) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return found.fetchone() is not None


@contextmanager
def throwaway_postgres(server_url: str, prefix: str = "bench_") -> Iterator[str]:
    """Create `<prefix><random>` on the server of `server_url`; yield its URL; drop it after.

    The drop forces other sessions off, so a benchmark server left running cannot keep it.
    """
    name = f"{prefix}{uuid.uuid4().hex[:10]}"
    with admin_connection(server_url) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    try:
        yield server_url.rsplit("/", 1)[0] + f"/{name}"
    finally:
        with admin_connection(server_url) as connection:
            connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
