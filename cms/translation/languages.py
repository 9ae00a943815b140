"""The two languages of the site, and where each one's pages live.

One site, one tree per language: the default Site's root page (depth 2) in each locale, the
topics below it, the digests below them. What this app needs of the tree it asks by locale and
depth, never by page class, so it sits below cms.digests, whose page models use its policy.
"""

from django.db.models import QuerySet, Subquery
from wagtail.models import Page, Site

SOURCE_LANGUAGE = "en"
TARGET_LANGUAGE = "zh-hant"
# A language's site root sits right under Wagtail's root; every page below it is translated.
LANGUAGE_ROOT_DEPTH = 2


class MissingTreeRoot(LookupError):
    """The site root page in a role's language does not exist yet (import the seed first)."""


def language_root(language: str) -> Page:
    """The default Site's root page in `language` (`.specific`): every page of it lives below."""
    default_root = Site.objects.filter(is_default_site=True).values("root_page__translation_key")
    root = Page.objects.filter(
        locale__language_code=language, translation_key=Subquery(default_root[:1])
    ).first()
    if root is None:
        raise MissingTreeRoot(f"No site root page in '{language}'; run import_digests first.")
    return root.specific


def translatable_pages(language: str) -> QuerySet[Page]:
    """Every page in `language` below its site root: the topics and digests translators work on."""
    return Page.objects.filter(locale__language_code=language, depth__gt=LANGUAGE_ROOT_DEPTH)
