"""How the sync's screens show what they record: to people, not as Python or JSON values.

A change's values are stored as the merge compares them (sync/selectors.py `paper_snapshot`):
authors as dicts, links as dicts, identifiers as strings. Editors read them as a line of text,
each field under the label of the paper's own form. Every date and time on the sync's screens
is shown one way, in Django's localized format of the admin's language, in the site's time.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.utils import formats, timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext_lazy as _

from cms.papers.locks import LOCKABLE_FIELDS

EMPTY = "—"
# Fields the sync writes that no editor locks.
UNLOCKABLE_FIELDS = [("notices", _("Update notices"))]


def field_label(name: str) -> str:
    """The label of field `name` on the paper's form ("Authors" for "authors")."""
    return str(dict(LOCKABLE_FIELDS + UNLOCKABLE_FIELDS).get(name, name))


def _notice(value: dict[str, Any]) -> str:
    """An update notice: "Retraction (retraction-watch, 2025-11-03) 10.1145/..."."""
    said = ", ".join(str(v) for v in (value.get("source"), value.get("date")) if v)
    text = str(value.get("label") or value["type"]) + (f" ({said})" if said else "")
    return f"{text} {value['doi']}" if value.get("doi") else text


def _item(value: Any) -> str:
    if isinstance(value, dict):
        if value.get("name"):
            return str(value["name"])
        if value.get("url"):
            label = value.get("label") or ""
            return f"{label}: {value['url']}" if label else str(value["url"])
        if value.get("type") and "source" in value:
            return _notice(value)
        return ", ".join(str(v) for v in value.values() if v not in (None, "", [], {}))
    return str(value)


def readable_value(value: Any) -> str:
    """A change's value as a line of text: authors "Jonas Varga, Ana Li", links "PDF: <url>",
    nothing as a dash."""
    if value in (None, "", [], {}):
        return EMPTY
    if isinstance(value, list):
        return ", ".join(_item(item) for item in value)
    return _item(value)


def readable_datetime(value: datetime | date | str | None) -> str:
    """A moment in Django's localized DATETIME_FORMAT (a date alone in DATE_FORMAT), in the
    site's time zone; ISO strings (provenance's `fetched_at`) are read first."""
    if isinstance(value, str):
        value = parse_datetime(value) if value else None
    if value is None:
        return EMPTY
    if isinstance(value, datetime):
        if timezone.is_aware(value):
            value = timezone.localtime(value)
        return formats.date_format(value, "DATETIME_FORMAT")
    return formats.date_format(value, "DATE_FORMAT")
