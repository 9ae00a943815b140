"""Which pages the public API may show: one condition, applied to whatever page type is listed."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.db.models import F, Q, QuerySet
from django.http import HttpRequest
from wagtail.api.v2.utils import BadRequestError
from wagtail.api.validators import SiteFilterValidator
from wagtail.models import Page, PageViewRestriction, Site

from cms.apicache.version import VISIBILITY_VERSION_KEY, read_with_version, store_with_version

# Built once per request (the listing, its count and the prefetches use the condition).
CONDITION_ATTRIBUTE = "public_page_condition"
PASSED_ATTRIBUTE = "passed_view_restriction"


def public_page_condition(request: HttpRequest) -> Q:
    """What makes a page public in the API, as one condition that fits Page and every subclass.

    The same rules as Wagtail's `get_public_pages_queryset` (live, not under a view restriction
    the request does not pass, inside the requested site or one of its translations), plus
    `unreachable_page_condition`. Wagtail builds a Page queryset, which a typed listing can only
    use as `pk IN (subquery)`, a scan SQLite cannot index; a condition filters the typed
    queryset directly.
    """
    cached = getattr(request, CONDITION_ATTRIBUTE, None)
    if cached is not None:
        return cached
    facts = visibility_facts(request)
    condition = Q(live=True)
    passed = False
    for restriction, path in facts.restrictions:
        if restriction.accept_request(request):
            passed = True
        else:
            condition &= ~Q(path__startswith=path)
    setattr(request, PASSED_ATTRIBUTE, passed)
    if facts.site is None:
        condition = Q(pk__in=[])
    else:
        in_site = Q()
        for path in facts.root_paths:
            in_site |= Q(path__startswith=path)
        condition &= in_site & unreachable_page_condition(facts.hidden_paths)
    setattr(request, CONDITION_ATTRIBUTE, condition)
    return condition


@dataclass(frozen=True)
class VisibilityFacts:
    """What decides which pages a request may see, beside the request itself."""

    site: Site | None
    root_paths: tuple[str, ...]  # the site root's and its translations'
    hidden_paths: tuple[str, ...]  # pages not live that have children: their branches
    restrictions: tuple[tuple[PageViewRestriction, str], ...]  # with the restricted page's path


def visibility_facts(request: HttpRequest) -> VisibilityFacts:
    """The facts for `request`'s site, from the cache while the visibility version stands (read
    with it in one round trip, as cms.apicache.middleware reads responses).

    Four queries a request otherwise, on every uncached API request; no paper write changes
    them, so the first request after a sync batch does not read them again. Every write that
    can change them bumps the version (cms.apicache.stale.CHANGES_VISIBILITY). They are kept as
    long as cached responses are (API_RESPONSE_CACHE_SECONDS; 0 keeps nothing).
    """
    timeout = settings.API_RESPONSE_CACHE_SECONDS
    if not timeout:
        return read_visibility_facts(request)
    site_parameter = request.GET.get("site", "")
    key = f"api-visibility:{request.get_host()}:{request.get_port()}:{site_parameter}"
    version, found = read_with_version([key], VISIBILITY_VERSION_KEY)
    if key in found:
        return found[key]
    facts = read_visibility_facts(request)
    if version is not None:
        store_with_version(key, version, facts, timeout)
    return facts


def read_visibility_facts(request: HttpRequest) -> VisibilityFacts:
    site = requested_site(request)
    restrictions = list(PageViewRestriction.objects.all())
    # The paths in a query of their own, and only when some restriction exists: joined to the
    # restrictions, SQLite's planner scans the whole page table even when there are none.
    paths = dict(
        Page.objects.filter(pk__in={r.page_id for r in restrictions}).values_list("pk", "path")
    )
    return VisibilityFacts(
        site=site,
        root_paths=tuple(site_root_paths(site)) if site is not None else (),
        hidden_paths=tuple(
            Page.objects.filter(live=False, numchild__gt=0).values_list("path", flat=True)
        ),
        restrictions=tuple((r, paths[r.page_id]) for r in restrictions if r.page_id in paths),
    )


def site_root_paths(site: Site) -> list[str]:
    """The tree paths of the site's root page and of its translations (one query)."""
    root = Page.objects.filter(pk=site.root_page_id).values("translation_key")
    return list(Page.objects.filter(translation_key__in=root).values_list("path", flat=True))


def depends_on_requester(request: HttpRequest) -> bool:
    """Whether the API's answer to `request` may differ from an anonymous reader's.

    So for a request that passes a view restriction (a topic then lists private digests too).
    """
    public_page_condition(request)
    return getattr(request, PASSED_ATTRIBUTE)


def requested_site(request: HttpRequest) -> Site | None:
    """The `?site=` filter's site, else the one serving the request (Wagtail's own lookups)."""
    if not request.GET.get("site"):
        return Site.find_for_request(request)
    try:
        return SiteFilterValidator(site=request.GET["site"], request=request).site_obj
    except ValueError as error:
        raise BadRequestError(str(error)) from error


def unreachable_page_condition(hidden_paths: tuple[str, ...]) -> Q:
    """Excludes pages no reader can reach even though they are live themselves.

    Wagtail's public queryset keeps a live page whose parent was unpublished or never published
    (under one of `hidden_paths`), and wagtail-localize's untranslated placeholders (aliases of
    a page in another locale) are live too; neither belongs in the public API. (The partial
    index digests_page_unpublished_path keeps the hidden branches from scanning the page table.)
    """
    condition = ~(Q(alias_of__isnull=False) & ~Q(alias_of__locale_id=F("locale_id")))
    for path in hidden_paths:
        condition &= ~Q(path__startswith=path)
    return condition


def public_pages(request: HttpRequest, model: type[Page] = Page) -> QuerySet:
    """The pages of `model` (Page or a subclass) that the public API may show to `request`."""
    return model.objects.filter(public_page_condition(request))
