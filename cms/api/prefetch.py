"""A page's public parent, read for a whole list of pages in one query.

Apart from the visibility rule and the page models: it reads only Wagtail's Page, so modules
that page models import may use it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from wagtail.models import Page

if TYPE_CHECKING:
    from .visibility import PublicRule

# The attribute that holds a page's prefetched public parent (read by cms.api.serializers and
# cms.digests.serializers).
PREFETCHED_PARENT = "_api_parent"


def parent_path(page: Page) -> str:
    """The tree path of `page`'s parent."""
    return page.path[: -page.steplen]


# What `meta.parent` (id, type, detail and html URLs, title) and a digest's `topic` (id, title,
# slug) read of a parent page.
PARENT_FIELDS = ("id", "title", "slug", "path", "depth", "url_path", "content_type")
# What PublicRule.public_among reads of a page.
RULE_FIELDS = ("live", "path", "alias_of", "locale")


def attach_public_parents(pages: Sequence[Page], *, rule: PublicRule) -> None:
    """Give each page its parent if the parent is public, else None, with one query for all.

    `meta.parent` and a digest's `topic` (its parent) both read it: Wagtail's parent field
    would read the parent, then ask whether it is public, in two queries a page.
    """
    wanted = {parent_path(page) for page in pages}
    parents = Page.objects.filter(path__in=wanted).only(*PARENT_FIELDS, *RULE_FIELDS).order_by()
    parents = {parent.path: parent for parent in rule.public_among(parents)}
    for page in pages:
        setattr(page, PREFETCHED_PARENT, parents.get(parent_path(page)))
