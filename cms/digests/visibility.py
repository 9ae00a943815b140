"""Which pages the public API may show: one condition, applied to whatever page type is listed."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from django.conf import settings
from django.db import connection
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.http import HttpRequest
from django.http.request import split_domain_port
from wagtail.api.v2.utils import BadRequestError
from wagtail.api.validators import SiteFilterValidator
from wagtail.models import Page, PageViewRestriction, Site
from wagtail.models.sites import get_site_for_hostname

from cms.apicache.version import per_content_version


@dataclass
class TreeFacts:
    """What the public rules read from the page tree besides the pages themselves.

    The same for every request until the content version changes: publishing, unpublishing,
    moves, deletions, privacy, site and locale changes all bump it (cms.apicache.signals), so
    the facts are read once per version and process instead of in three queries per request.
    """

    restrictions: tuple[PageViewRestriction, ...]
    hidden_branches: tuple[str, ...]
    shared_roots: frozenset[str]  # paths of root pages that more than one site serves
    site_root_paths: dict[int, tuple[str, ...]] = field(default_factory=dict)
    sites_by_host: dict[tuple[str, str], Site | None] = field(default_factory=dict)

    def site_for(self, request: HttpRequest) -> Site | None:
        """Wagtail's Site.find_for_request, remembered per host name and port."""
        if not hasattr(request, "_wagtail_site"):
            # As Site._find_for_request: the raw host, so ALLOWED_HOSTS is not checked twice.
            key = (split_domain_port(request._get_raw_host())[0], request.get_port())
            if key not in self.sites_by_host:
                try:
                    self.sites_by_host[key] = get_site_for_hostname(*key)
                except Site.DoesNotExist:
                    self.sites_by_host[key] = None
            request._wagtail_site = self.sites_by_host[key]
        return request._wagtail_site

    def root_paths(self, site: Site) -> tuple[str, ...]:
        """The paths of the site's root page and (with i18n) of its translations."""
        if site.root_page_id not in self.site_root_paths:
            roots = [site.root_page]
            if getattr(settings, "WAGTAIL_I18N_ENABLED", False):
                roots += list(site.root_page.get_translations())
            self.site_root_paths[site.root_page_id] = tuple(root.path for root in roots)
        return self.site_root_paths[site.root_page_id]


@per_content_version
def tree_facts() -> TreeFacts:
    """The facts for the content version in force (read afresh inside a transaction)."""
    # Unpublished pages with children: their live descendants must stay hidden. (The partial
    # index digests_page_unpublished_path keeps this from scanning the page table.)
    hidden = Page.objects.filter(live=False, numchild__gt=0).values_list("path", flat=True)
    # Wagtail keeps the site root paths in the cache (Site.get_site_root_paths).
    served = {(root.site_id, root.root_path) for root in Site.get_site_root_paths()}
    sites_per_root = Counter(path for _site, path in served)
    return TreeFacts(
        restrictions=tuple(PageViewRestriction.objects.select_related("page")),
        hidden_branches=tuple(hidden),
        shared_roots=frozenset(root for root, sites in sites_per_root.items() if sites > 1),
    )


def public_page_condition(request: HttpRequest) -> Q:
    """What makes a page public in the API, as one condition that fits Page and every subclass.

    The same rules as Wagtail's `get_public_pages_queryset` (live, not under a view restriction
    the request does not pass, inside the requested site or one of its translations), plus
    `unreachable_page_condition`. Wagtail builds a Page queryset, which a typed listing can only
    use as `pk IN (subquery)`, a scan SQLite cannot index; a condition filters the typed
    queryset directly. Built once per request.
    """
    cached = getattr(request, "_public_page_condition", None)
    if cached is not None:
        return cached
    facts = tree_facts()
    condition = Q(live=True)
    for restriction in facts.restrictions:
        if not restriction.accept_request(request):
            condition &= ~Q(path__startswith=restriction.page.path)
    site = _requested_site(request, facts)
    if site is None:
        condition = Q(pk__in=[])
    else:
        in_site = Q()
        for path in facts.root_paths(site):
            in_site |= Q(path__startswith=path)
        condition &= in_site & unreachable_page_condition(facts)
    request._public_page_condition = condition
    return condition


def lists_as_anyone(request: HttpRequest) -> bool:
    """Whether the API's items for `request` are the bytes any anonymous reader of its site gets.

    Not so for a request that passes a view restriction (a topic then lists private digests
    too), one that names a `site` (it lists another site's pages), or a site whose root another
    site serves as well (Wagtail gives such pages the requesting site's address).
    """
    if request.GET.get("site"):
        return False
    facts = tree_facts()
    if any(restriction.accept_request(request) for restriction in facts.restrictions):
        return False
    site = facts.site_for(request)
    return site is not None and not facts.shared_roots.intersection(facts.root_paths(site))


def _requested_site(request: HttpRequest, facts: TreeFacts) -> Site | None:
    """The `?site=` filter's site, else the one serving the request (Wagtail's own lookups)."""
    if not request.GET.get("site"):
        return facts.site_for(request)
    try:
        return SiteFilterValidator(site=request.GET["site"], request=request).site_obj
    except ValueError as error:
        raise BadRequestError(str(error)) from error


def unreachable_page_condition(facts: TreeFacts) -> Q:
    """Excludes pages no reader can reach even though they are live themselves.

    Wagtail's public queryset keeps a live page whose parent was unpublished or never published,
    and wagtail-localize's untranslated placeholders (aliases of a page in another locale) are live
    too; neither belongs in the public API.
    """
    condition = not_a_placeholder_condition()
    for path in facts.hidden_branches:
        condition &= ~Q(path__startswith=path)
    return condition


def not_a_placeholder_condition() -> Q:
    """Not an alias, or an alias of a page in its own locale (a placeholder's original isn't).

    Two spellings of one rule, measured on the bench's 5,000 pages per language: PostgreSQL
    hashes the whole page table to join each page to its original, so there an EXISTS, which
    it runs for aliases only, makes a listing 12% faster; SQLite probes the original by primary
    key for next to nothing, and compiling the subquery made its listing 5% slower.
    """
    if connection.vendor == "postgresql":
        original = Page.objects.filter(pk=OuterRef("alias_of_id"), locale_id=OuterRef("locale_id"))
        return Q(alias_of__isnull=True) | Exists(original)
    return ~(Q(alias_of__isnull=False) & ~Q(alias_of__locale_id=F("locale_id")))


def public_pages(request: HttpRequest, model: type[Page] = Page) -> QuerySet:
    """The pages of `model` (Page or a subclass) that the public API may show to `request`."""
    return model.objects.filter(public_page_condition(request))
