"""Which pages the public API may show: one condition, applied to whatever page type is listed."""

from __future__ import annotations

from django.conf import settings
from django.db.models import F, Q, QuerySet
from django.http import HttpRequest
from wagtail.api.v2.utils import BadRequestError
from wagtail.api.validators import SiteFilterValidator
from wagtail.models import Page, PageViewRestriction, Site


def public_page_condition(request: HttpRequest) -> Q:
    """What makes a page public in the API, as one condition that fits Page and every subclass.

    The same rules as Wagtail's `get_public_pages_queryset` (live, not under a view restriction
    the request does not pass, inside the requested site or one of its translations), plus
    `unreachable_page_condition`. Wagtail builds a Page queryset, which a typed listing can only
    use as `pk IN (subquery)`, a scan SQLite cannot index; a condition filters the typed
    queryset directly. Built once per request: it costs a few small queries.
    """
    cached = getattr(request, "_public_page_condition", None)
    if cached is not None:
        return cached
    condition = Q(live=True)
    for restriction in PageViewRestriction.objects.select_related("page"):
        if not restriction.accept_request(request):
            condition &= ~Q(path__startswith=restriction.page.path)
    site = _requested_site(request)
    if site is None:
        condition = Q(pk__in=[])
    else:
        roots = [site.root_page]
        if getattr(settings, "WAGTAIL_I18N_ENABLED", False):
            roots += list(site.root_page.get_translations())
        in_site = Q()
        for root in roots:
            in_site |= Q(path__startswith=root.path)
        condition &= in_site & unreachable_page_condition()
    request._public_page_condition = condition
    return condition


def _requested_site(request: HttpRequest) -> Site | None:
    """The `?site=` filter's site, else the one serving the request (Wagtail's own lookups)."""
    if not request.GET.get("site"):
        return Site.find_for_request(request)
    try:
        return SiteFilterValidator(site=request.GET["site"], request=request).site_obj
    except ValueError as error:
        raise BadRequestError(str(error)) from error


def unreachable_page_condition() -> Q:
    """Excludes pages no reader can reach even though they are live themselves.

    Wagtail's public queryset keeps a live page whose parent was unpublished or never published,
    and wagtail-localize's untranslated placeholders (aliases of a page in another locale) are live
    too; neither belongs in the public API.
    """
    condition = ~(Q(alias_of__isnull=False) & ~Q(alias_of__locale_id=F("locale_id")))
    hidden_branches = Page.objects.filter(live=False, numchild__gt=0).values_list("path", flat=True)
    for path in hidden_branches:
        condition &= ~Q(path__startswith=path)
    return condition


def public_pages(request: HttpRequest, model: type[Page] = Page) -> QuerySet:
    """The pages of `model` (Page or a subclass) that the public API may show to `request`."""
    return model.objects.filter(public_page_condition(request))
