"""Serve the reader's HTML shell; everything on the page comes from the API in the browser."""

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import translate_url
from django.utils import translation
from django.views import defaults
from django.views.decorators.cache import cache_control, never_cache
from wagtail.models import Page

from cms.api.errors import API_PATH_PREFIX, api_not_found
from cms.api.visibility import private_for_who_sees_more, public_rule
from cms.digests.fallback import fallback_page

ADMIN_PATH_PREFIXES = ("/admin/", "/documents/")

# Before each language had its own address, `?lang=` picked the language of one link.
OLD_LANGUAGE_PARAMETER = "lang"


@private_for_who_sees_more
@cache_control(public=True, max_age=300)
def reader_shell(request: HttpRequest, path: str = "") -> HttpResponse:
    """The index, a topic (`<topic>/`) or a digest (`<topic>/<digest>/`): one shell for all.

    The language is the address's (`/zh-hant/…` or none for English); an old `?lang=` link is
    sent on to the address of the language it asked for. A page that language lacks but
    English has is served too (the reader shows the English page, noted as not yet translated:
    cms.digests.fallback), naming the English address as canonical.
    """
    if OLD_LANGUAGE_PARAMETER in request.GET:
        target = address_in_asked_language(request)
        if target is not None:
            return HttpResponseRedirect(target)
    if is_public_page_path(request, path):
        return render(request, "reader/shell.html", shell_context(preview=False))
    english = fallback_page(request, translation.get_language(), path)
    if english is None:
        return page_not_found(request)  # the reader's 404, or JSON for an /api/ address
    # A page this language lacks, shown in English (the reader notes it): its canonical
    # address is the English one.
    context = {**shell_context(preview=False), "canonical": english.get_full_url(request)}
    return render(request, "reader/shell.html", context)


def reader_not_found(request: HttpRequest) -> HttpResponse:
    """The shell with status 404: the reader shows its "not found" view in the address's
    language, and crawlers and link checkers see the status."""
    return render(request, "reader/shell.html", shell_context(preview=False), status=404)


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """handler404: JSON under /api/, Django's page for the admin, the reader's page elsewhere."""
    path = request.path_info
    if path.startswith(API_PATH_PREFIX):
        return api_not_found(request, exception)
    if path.startswith(ADMIN_PATH_PREFIXES):
        return defaults.page_not_found(request, exception)
    return reader_not_found(request)


def is_public_page_path(request: HttpRequest, path: str) -> bool:
    """Whether `path` (in the active language) is a page the public API shows.

    Wagtail's routing finds the page (from the site root's translation in the active
    language, as `find/?html_path=` does); the pages API's public rule decides.
    """
    page = Page.find_for_request(request, "/".join(part for part in path.split("/") if part))
    return page is not None and bool(public_rule(request).public_among([page]))


@never_cache
def preview_shell(request: HttpRequest) -> HttpResponse:
    """Where the admin's headless preview points: the shell in preview mode, never cached."""
    response = render(request, "reader/shell.html", shell_context(preview=True))
    response["X-Robots-Tag"] = "noindex"
    return response


def shell_context(*, preview: bool) -> dict[str, object]:
    """The language the shell starts in: the active one (from the address on the reader's pages)."""
    language_code = translation.get_language()
    return {"preview": preview, "html_lang": translation.to_locale(language_code).replace("_", "-")}


def address_in_asked_language(request: HttpRequest) -> str | None:
    """This page's address in the `?lang=` language, the rest of the query kept; None if unknown.

    `translate_url` resolves the path and reverses it with that language active, so the
    `/zh-hant/` prefix comes from i18n_patterns, as it does for Wagtail's page URLs.
    """
    try:
        language_code = translation.get_supported_language_variant(
            request.GET[OLD_LANGUAGE_PARAMETER]
        )
    except LookupError:
        return None  # not a language of the site: the shell ignores it too
    query = request.GET.copy()
    del query[OLD_LANGUAGE_PARAMETER]
    url = request.path_info + (f"?{query.urlencode()}" if query else "")
    return translate_url(url, language_code)
