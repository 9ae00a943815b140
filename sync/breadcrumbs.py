"""Headers of the sync detail screens: where the screen sits, not only "Home".

Wagtail's generic template mixin shows just its base item ("Home") unless a view appends its own
trail; the listings (ReportView) append their title, the detail screens did not.
"""

from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class SyncDetailBreadcrumbsMixin:
    """Home > Metadata sync: <listing> > <this screen's title>."""

    listing_url_name: str = ""
    listing_label = ""

    def get_breadcrumbs_items(self) -> list[dict]:
        return [
            *super().get_breadcrumbs_items(),
            {
                "url": reverse(self.listing_url_name),
                "label": _("Metadata sync: %(listing)s") % {"listing": self.listing_label},
            },
            {"url": "", "label": self.get_page_title()},
        ]
