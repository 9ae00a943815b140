"""The language of a request: from the address on the reader's pages, negotiated elsewhere.

Once the URLconf uses `i18n_patterns`, Django's LocaleMiddleware gives every request without a
language prefix the default language (`prefix_default_language=False`), whatever the path. Only
the reader's pages carry a prefix here, so that rule would turn the admin (for users without a
language of their own), its login page, the API's messages and the preview frame English for
everyone. This keeps Django's rule for the routes inside `i18n_patterns` and gives every other
path the negotiation it had before: the language cookie, then `Accept-Language`. Inside the
admin, a user's own language preference still wins (Wagtail activates it around each view).
"""

from django.conf import settings
from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.urls import LocalePrefixPattern, Resolver404, resolve
from django.utils import translation


class ReaderLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, with the address deciding only on language-prefixed routes."""

    def process_request(self, request: HttpRequest) -> None:
        if is_language_route(request):
            super().process_request(request)
            return
        translation.activate(translation.get_language_from_request(request, check_path=False))
        request.LANGUAGE_CODE = translation.get_language()


def is_language_route(request: HttpRequest) -> bool:
    """Whether the path names a language: it has a prefix, or resolves inside i18n_patterns."""
    if translation.get_language_from_path(request.path_info):
        return True
    # An unprefixed path is matched in the default language, as Django will match it.
    with translation.override(settings.LANGUAGE_CODE):
        try:
            match = resolve(request.path_info, getattr(request, "urlconf", None))
        except Resolver404:
            return False
    # `tried` ends with the chain of patterns that matched, outermost first.
    return isinstance(match.tried[-1][0].pattern, LocalePrefixPattern)
