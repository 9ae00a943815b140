"""Which English page fills in, at an address of another language, for a page that language
lacks: `find/?html_path=/zh-hant/<topic>/<digest>/&fallback=en` and the reader's shell.

Slugs may differ between languages (a translated topic's slug), so the address is walked down
that language's tree as far as it has pages, and down the English tree from there: the
English page is the translation of the last page the language has on the way, then the child
with each remaining slug.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest
from wagtail.models import Locale, Page, Site

from cms.api.prefetch import RULE_FIELDS
from cms.api.visibility import public_rule


def fallback_page(request: HttpRequest, language: str, path: str) -> Page | None:
    """The English page a reader of `language` means by `path` (below that language's site
    root, without the prefix), if the API shows it to `request` and shows no translation of it
    in `language`; else None."""
    default = settings.LANGUAGE_CODE
    if language == default:
        return None
    english = english_counterpart(request, language, [part for part in path.split("/") if part])
    if english is None:
        return None
    rule = public_rule(request)
    if not rule.public_among([english]):
        return None
    translations = Page.objects.filter(
        translation_key=english.translation_key, locale__language_code=language
    ).only(*RULE_FIELDS)
    if rule.public_among(translations):
        return None  # the language has the page: no fallback
    return english


def english_counterpart(request: HttpRequest, language: str, slugs: list[str]) -> Page | None:
    """The English page at the place `slugs` name in `language`'s tree of the request's site."""
    site = Site.find_for_request(request)
    locale = Locale.objects.filter(language_code=language).first()
    if site is None or locale is None:
        return None
    default = settings.LANGUAGE_CODE
    here = site.root_page.get_translation_or_none(locale)  # the walk down `language`'s tree
    english = in_language(site.root_page, default)
    for slug in slugs:
        if english is None:
            return None
        child = here.get_children().filter(slug=slug).first() if here is not None else None
        if child is not None:
            here, english = child, in_language(child, default)
        else:
            here, english = None, english.get_children().filter(slug=slug).first()
    return english


def in_language(page: Page, language: str) -> Page | None:
    """`page` itself if it is in `language`, else its translation there (or None)."""
    return (
        Page.objects.filter(translation_key=page.translation_key, locale__language_code=language)
        .order_by()
        .first()
    )
