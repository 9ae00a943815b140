"""One line of text: titles and names hold no line breaks nor other control characters.

Every citation format is line- or field-based: in RIS a line `ER  - ` ends a record and
`TY  - ` starts one, so a title "X\\nER  - \\nTY  - JOUR" forges a second record; the formatted
text citation breaks the same way. A title or a name is one line as printed, so the data model
refuses control characters (validators on the fields, hence the admin forms), the sync's one
writing service cleans what sources send with `one_line`, and the exports write every value
through `one_line` too, so that no row stored before this rule can break a format either.
"""

from __future__ import annotations

import re

from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

# Unicode's control characters (category Cc: C0, DEL, C1 with NEL) and its line and paragraph
# separators, which Python's str.splitlines() and many readers take as line ends.
_BREAKING = "\x00-\x1f\x7f-\x9f\u2028\u2029"
BREAKING_CHARACTERS = re.compile(f"[{_BREAKING}]")
_BREAKS_AND_SPACES = re.compile(f"[{_BREAKING}\\s]+")


def has_breaking_characters(value: str) -> bool:
    """Whether `value` holds a line break, a tab or another control character."""
    return bool(BREAKING_CHARACTERS.search(value or ""))


def one_line(value: str | None) -> str:
    """`value` on one line: each run of control characters and spaces becomes one space."""
    if not value:
        return ""
    if not has_breaking_characters(value):
        return value
    return _BREAKS_AND_SPACES.sub(" ", value).strip()


def validate_one_line(value: str) -> None:
    """The fields' validator: a title or a name typed with a line break or a control
    character is refused, naming what is wrong, rather than stored and cleaned silently."""
    if has_breaking_characters(value):
        raise ValidationError(
            _("Enter this on one line: line breaks, tabs and control characters are not allowed."),
            code="control_characters",
        )
