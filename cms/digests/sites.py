"""The Wagtail Site's name: the product's name, which the admin's dashboard shows as its heading.

Wagtail heads the dashboard with the Site's `site_name`, or its host name when that is empty
("127.0.0.1"); `WAGTAIL_SITE_NAME` only applies to users whose pages belong to no Site.
"""

from django.conf import settings
from django.utils import translation
from wagtail.models import Site


def product_name() -> str:
    """WAGTAIL_SITE_NAME in the site's main language, as stored in the database."""
    with translation.override(settings.LANGUAGE_CODE):
        return str(settings.WAGTAIL_SITE_NAME)


def name_site(site: Site) -> bool:
    """Give `site` the product's name unless someone named it already; True if it changed."""
    if site.site_name:
        return False
    site.site_name = product_name()
    site.save(update_fields=["site_name"])
    return True
