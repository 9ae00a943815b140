"""The language of a request: from the address on the reader's pages, negotiated elsewhere.

Once the URLconf uses `i18n_patterns`, Django's LocaleMiddleware gives every request without a
language prefix the default language (`prefix_default_language=False`), whatever the path. Only
the reader's pages carry a prefix here, so that rule would turn the admin (for users without a
language of their own), its login page, the API's messages and the preview frame English for
everyone. This keeps Django's rule for the routes inside `i18n_patterns` and gives every other
route the negotiation it had before: the language cookie, then `Accept-Language`. Inside the
admin, a user's own language preference still wins (Wagtail activates it around each view).
"""

from collections.abc import Callable

from django.http import HttpRequest
from django.middleware.locale import LocaleMiddleware
from django.urls import LocalePrefixPattern, ResolverMatch
from django.utils import translation


class ReaderLocaleMiddleware(LocaleMiddleware):
    """Django's LocaleMiddleware, with the address deciding only on language-prefixed routes.

    Django resolves the path in the language process_request activates (as it would without
    this class); once the route is known, a route outside i18n_patterns gets the negotiated
    language before its view runs. Resolving here instead would resolve every request twice.
    """

    def process_view(
        self,
        request: HttpRequest,
        view_func: Callable[..., object],
        view_args: tuple[object, ...],
        view_kwargs: dict[str, object],
    ) -> None:
        if not takes_language_from_address(request.resolver_match):
            translation.activate(translation.get_language_from_request(request, check_path=False))
            request.LANGUAGE_CODE = translation.get_language()


def takes_language_from_address(match: ResolverMatch) -> bool:
    """Whether the route matched inside i18n_patterns (whose prefix names the language)."""
    # `tried` ends with the chain of patterns that matched, outermost first.
    return isinstance(match.tried[-1][0].pattern, LocalePrefixPattern)
