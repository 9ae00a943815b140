"""The Wagtail Site's name: the product's name, which the admin's dashboard shows as its heading.

Wagtail heads the dashboard with the Site's `site_name`, or its host name when that is empty
("127.0.0.1"); `WAGTAIL_SITE_NAME` only applies to users whose pages belong to no Site.
"""

from django.conf import settings
from django.utils import translation
from wagtail.models import Site


def name_site(site: Site) -> None:
    """Give `site` the product's name (WAGTAIL_SITE_NAME in the site's main language) unless
    someone named it already."""
    if not site.site_name:
        with translation.override(settings.LANGUAGE_CODE):
            site.site_name = str(settings.WAGTAIL_SITE_NAME)
        site.save(update_fields=["site_name"])
