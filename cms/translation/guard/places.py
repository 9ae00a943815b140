"""Name a translation segment's place as a person reads it, not as wagtail-localize stores it.

wagtail-localize keeps a segment's place as a path of field names and block ids
(`body.6f0c….text`); a translator looks for "Body > Heading 2 > Heading" (SEPARATOR between
the steps). The labels are the model's and the blocks' own, so they follow the admin's language.
"""

from django.core.exceptions import FieldDoesNotExist
from django.db.models import Model
from django.utils.text import capfirst
from wagtail.blocks import ListBlock, StreamBlock, StructBlock

SEPARATOR = " \u203a "


def _label(block) -> str:
    return str(capfirst(block.label or block.name or ""))


def _step(block, value, component: str):
    """(label, child block, child value) for one path component below a block, or None."""
    if isinstance(block, StreamBlock):
        seen: dict[str, int] = {}
        for child in value or []:
            seen[child.block_type] = seen.get(child.block_type, 0) + 1
            if child.id == component:
                return f"{_label(child.block)} {seen[child.block_type]}", child.block, child.value
        return None
    if isinstance(block, StructBlock) and component in block.child_blocks:
        child_block = block.child_blocks[component]
        return _label(child_block), child_block, (value or {}).get(component)
    if isinstance(block, ListBlock):
        items = getattr(value, "bound_blocks", None) or []
        for number, item in enumerate(items, 1):
            if item.id == component:
                return f"{_label(block.child_block)} {number}", block.child_block, item.value
    return None


def place_label(instance: Model, path: str) -> str:
    """`path` (a wagtail-localize segment path on `instance`) as "Field > Block n > Child".

    What cannot be followed (a block removed since) ends the label at the last known place.
    """
    name, *components = path.split(".")
    try:
        field = instance._meta.get_field(name)
    except FieldDoesNotExist:
        return path
    labels = [str(capfirst(getattr(field, "verbose_name", name)))]
    block = getattr(field, "stream_block", None)
    value = getattr(instance, name, None)
    for component in components:
        step = _step(block, value, component) if block is not None else None
        if step is None:
            break
        label, block, value = step
        labels.append(label)
    return SEPARATOR.join(labels)
