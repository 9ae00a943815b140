"""The seeded database as JSON, for tests that must commit (live servers, worker subprocesses).

Transactional tests flush the database after each one. Importing the seed again for every such
test would take most of a minute, so the seeded database is serialized once per session and
restored before each of them (the same idea as Django's `serialized_rollback`, with content
types first so that restoring never races the signals that create them).
"""

from io import StringIO

from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

# Search index rows are rebuilt by signals on restore; everything else is copied as it was.
NOT_SNAPSHOTTED_APPS = {"wagtailsearch", "modelsearch"}


def _snapshot_models():
    yield ContentType
    for model in apps.get_models():
        meta = model._meta
        if model is ContentType or meta.app_label in NOT_SNAPSHOTTED_APPS:
            continue
        if meta.managed and not meta.proxy and not meta.swapped:
            yield model


def serialize_database() -> str:
    """Every row of the snapshotted models, as Django's JSON serialization."""

    def objects():
        for model in _snapshot_models():
            yield from model._base_manager.order_by(model._meta.pk.name).iterator()

    out = StringIO()
    serializers.serialize("json", objects(), stream=out)
    return out.getvalue()


def restore_database(snapshot: str) -> None:
    """Flush the database and load `snapshot` into it, committed."""
    call_command("flush", interactive=False, verbosity=0, inhibit_post_migrate=True)
    connection.creation.deserialize_db_from_string(snapshot)
    # Rows came back with their ids: move sequences past them (PostgreSQL) as loaddata does.
    statements = connection.ops.sequence_reset_sql(no_style(), list(_snapshot_models()))
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
    cache.clear()  # Wagtail caches site root paths
