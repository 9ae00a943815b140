"""Wagtail's API error messages, said again in the request's language.

Wagtail's API writes its 400 and 404 messages as plain English strings (no gettext), so no
catalog, Wagtail's included, can translate them, while the project's own messages follow the
request's language. Each wording Wagtail uses is matched here and said again through the
project's catalog (`locales/`), its values kept; a wording not listed (one that a Wagtail
upgrade adds or rewords) goes out in English as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from django.utils.translation import gettext as _

Rewording = Callable[[dict[str, str]], str]

# (Wagtail's message as a pattern, the same message through the catalog), in Wagtail's order:
# wagtail.api.v2.pagination, filters, views; wagtail.api.rich_text; DRF's get_object_or_404.
WAGTAIL_MESSAGES: list[tuple[re.Pattern[str], Rewording]] = [
    (
        re.compile(r"limit cannot be higher than (?P<max>\d+)"),
        lambda v: _("%(name)s must be at most %(max)d") % {"name": "limit", "max": int(v["max"])},
    ),
    (
        re.compile(r"random ordering cannot be combined with other fields"),
        lambda v: _("random ordering cannot be combined with other fields"),
    ),
    (
        re.compile(r"random ordering with offset is not supported"),
        lambda v: _("random ordering with offset is not supported"),
    ),
    (
        re.compile(r"cannot order by '(?P<name>.*)' \(unknown field\)"),
        lambda v: _("cannot order by %(name)r (unknown field)") % v,
    ),
    (
        re.compile(r"cannot order by '(?P<name>.*)' \(invalid field\)"),
        lambda v: _("cannot order by %(name)r (invalid field)") % v,
    ),
    (re.compile(r"parent page doesn't exist"), lambda v: _("parent page doesn't exist")),
    (re.compile(r"ancestor page doesn't exist"), lambda v: _("ancestor page doesn't exist")),
    (re.compile(r"descendant page doesn't exist"), lambda v: _("descendant page doesn't exist")),
    (
        re.compile(r"translation_of page doesn't exist"),
        lambda v: _("translation_of page doesn't exist"),
    ),
    (
        re.compile(r"filtering by descendant_of with child_of is not supported"),
        lambda v: _("filtering by descendant_of with child_of is not supported"),
    ),
    (
        re.compile(r"query parameter is not an operation or a recognised field: (?P<names>.*)"),
        lambda v: _("query parameter is not an operation or a recognised field: %(names)s") % v,
    ),
    (re.compile(r"unknown fields: (?P<names>.*)"), lambda v: _("unknown fields: %(names)s") % v),
    (
        re.compile(r"'(?P<name>.*)' does not support nested fields"),
        lambda v: _("%(name)r does not support nested fields") % v,
    ),
    (re.compile(r"fields error: (?P<error>.*)"), lambda v: _("fields error: %(error)s") % v),
    (re.compile(r"type doesn't exist"), lambda v: _("type doesn't exist")),
    (
        re.compile(r"rich_text_format must be one of (?P<choices>.*), got (?P<value>.*)"),
        lambda v: _("rich_text_format must be one of %(choices)s, got %(value)s") % v,
    ),
    (
        re.compile(r"No (?P<name>\w+) matches the given query\."),
        lambda v: _("No %s matches the given query.") % v["name"],
    ),
]


def in_request_language(message: str) -> str:
    """`message` through the catalog if it is one of Wagtail's wordings, else unchanged."""
    for pattern, reworded in WAGTAIL_MESSAGES:
        if match := pattern.fullmatch(message):
            return reworded(match.groupdict())
    return message
