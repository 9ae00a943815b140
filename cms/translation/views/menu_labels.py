"""Menu labels that upstream translates once per process instead of once per request.

Wagtail's "What's new in Wagtail" help item and wagtail-localize's "Translations" report item
call `gettext` when their hook builds the item, and Wagtail keeps the built items for the
process's life: whichever language the first admin request had is the label everyone sees. A
zh-hant translator who came after an English editor read English. Upstream would need
`gettext_lazy` in those two hooks; until then the construct hooks swap in a per-request copy
with the label in the reader's language (the shared item is never changed).
"""

import copy

from django.utils.translation import gettext
from wagtail.admin.menu import MenuItem
from wagtail.utils.version import get_main_version
from wagtail_localize.wagtail_hooks import TranslationsReportMenuItem


def whats_new_label() -> str:
    return gettext("What's new in Wagtail %(version)s") % {
        "version": get_main_version(include_patch=False)
    }


def relabelled(item: MenuItem) -> MenuItem:
    """`item`, or a copy of it with its label translated now, when upstream fixed it early."""
    if isinstance(item, TranslationsReportMenuItem):
        label = gettext("Translations")
    elif item.name.startswith("whats-new-in-wagtail-"):
        label = whats_new_label()
    else:
        return item
    item = copy.copy(item)
    item.label = label
    return item


def relabel_in_place(menu_items: list[MenuItem]) -> None:
    """For Wagtail's `construct_*_menu` hooks, which edit the request's list in place."""
    menu_items[:] = [relabelled(item) for item in menu_items]
