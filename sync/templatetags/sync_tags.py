"""Template filters of the sync's screens."""

from django import template

from sync.sources import display_name

register = template.Library()


@register.filter
def source_label(name: str) -> str:
    """A source's name as people know it ("Crossref"), not its settings key ("crossref")."""
    return display_name(name)
