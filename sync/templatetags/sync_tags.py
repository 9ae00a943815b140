"""Template filters of the sync's screens (sync/display.py says how each value is shown)."""

from django import template

from sync import display
from sync.sources import display_name

register = template.Library()


@register.filter
def source_label(name: str) -> str:
    """A source's name as people know it ("Crossref"), not its settings key ("crossref")."""
    return display_name(name)


@register.filter
def field_label(name: str) -> str:
    return display.field_label(name)


@register.filter
def change_value(value) -> str:
    return display.readable_value(value)


@register.filter
def when(value) -> str:
    """Every date and time on the sync's screens, one format (Django's localized one)."""
    return display.readable_datetime(value)
