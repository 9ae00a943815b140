"""Which pages the public API may show: one rule, applied as a condition to whatever page type
is listed, or to pages already read."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from copy import copy
from dataclasses import dataclass
from functools import wraps

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.db.models import F, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control
from wagtail.api.v2.utils import BadRequestError
from wagtail.api.validators import SiteFilterValidator
from wagtail.images import get_image_model
from wagtail.models import Page, PageViewRestriction, ReferenceIndex, Site
from wagtail_localize.models import Translation

from .prefetch import RULE_FIELDS
from .version import VISIBILITY_VERSION_KEY, read_through

# Built once per request (the listing, its count, the prefetches and the detail use them).
RULE_ATTRIBUTE = "public_page_rule"
CONDITION_ATTRIBUTE = "public_page_condition"
FACTS_ATTRIBUTE = "visibility_facts"


@dataclass(frozen=True)
class PublicRule:
    """What makes a page public in the API for one request.

    The same rules as Wagtail's `get_public_pages_queryset` (live, not under a view restriction
    the request does not pass, inside the requested site or one of its translations), plus two
    kinds of live page no reader can reach: one whose parent was unpublished or never published
    (under an unpublished branch; the partial index digests_page_unpublished_path keeps those
    from scanning the page table), and wagtail-localize's untranslated placeholders (aliases of
    a page in another locale). An alias in its own locale shows only while the rule shows the
    page it repeats: a restriction on that page (or its topic) must keep its content private.

    The rule is applied two ways that must agree (tests/digests/test_public_rule.py compares
    them on every page): as a query condition for listings (`condition`), and to pages already
    read (`public_among`), so that a detail and its parent need no condition compiled into
    their queries, which cost more than running them.
    """

    root_paths: tuple[str, ...]  # the site root's and its translations'; none: no site
    excluded_paths: tuple[str, ...]  # restricted branches not passed, unpublished branches
    passed_restriction: bool  # whether the request passed some view restriction

    def condition(self) -> Q:
        """The rule as one condition that fits Page and every subclass.

        Wagtail builds a Page queryset, which a typed listing can only use as
        `pk IN (subquery)`, a scan SQLite cannot index; a condition filters the typed queryset
        directly.
        """
        if not self.root_paths:
            return Q(pk__in=[])
        in_site = Q()
        for path in self.root_paths:
            in_site |= Q(path__startswith=path)
        condition = Q(live=True) & in_site & ~PLACEHOLDER_CONDITION
        source_shown = Q(alias_of__live=True)
        for path in self.excluded_paths:
            condition &= ~Q(path__startswith=path)
            source_shown &= ~Q(alias_of__path__startswith=path)
        return condition & (Q(alias_of__isnull=True) | source_shown)

    def public_among(self, pages: Iterable[Page]) -> list[Page]:
        """The pages of `pages` the rule admits, in their order (a query only if some page is
        an alias, for the pages they are aliases of)."""
        candidates = [
            page
            for page in pages
            if page.live
            and page.path.startswith(self.root_paths)
            and not page.path.startswith(self.excluded_paths)
        ]
        aliased = {page.alias_of_id for page in candidates if page.alias_of_id is not None}
        sources = (
            {
                pk: (locale_id, live and not path.startswith(self.excluded_paths))
                for pk, locale_id, live, path in Page.objects.filter(pk__in=aliased).values_list(
                    "pk", "locale_id", "live", "path"
                )
            }
            if aliased
            else {}
        )
        return [
            page
            for page in candidates
            if page.alias_of_id is None or sources.get(page.alias_of_id) == (page.locale_id, True)
        ]


# wagtail-localize's untranslated placeholders: aliases of a page in another locale.
PLACEHOLDER_CONDITION = Q(alias_of__isnull=False) & ~Q(alias_of__locale_id=F("locale_id"))


def public_rule(request: HttpRequest) -> PublicRule:
    """The rule for `request`, from its site's visibility facts and what it passes."""
    rule = getattr(request, RULE_ATTRIBUTE, None)
    if rule is None:
        facts = visibility_facts(request)
        rule = rule_from_facts(facts, lambda restriction: restriction.accept_request(request))
        setattr(request, RULE_ATTRIBUTE, rule)
    return rule


def rule_from_facts(
    facts: VisibilityFacts, passes: Callable[[PageViewRestriction], bool]
) -> PublicRule:
    """The rule for a reader who `passes` some of the site's view restrictions."""
    not_passed = tuple(path for restriction, path in facts.restrictions if not passes(restriction))
    return PublicRule(
        root_paths=facts.root_paths,
        excluded_paths=not_passed + facts.hidden_paths,
        passed_restriction=len(not_passed) < len(facts.restrictions),
    )


def public_page_condition(request: HttpRequest) -> Q:
    """The request's rule as a query condition (PublicRule.condition), built once per request."""
    condition = getattr(request, CONDITION_ATTRIBUTE, None)
    if condition is None:
        condition = public_rule(request).condition()
        setattr(request, CONDITION_ATTRIBUTE, condition)
    return condition


@dataclass(frozen=True)
class VisibilityFacts:
    """What decides which pages a request may see, beside the request itself."""

    root_paths: tuple[str, ...]  # the site root's and its translations'; none without a site
    hidden_paths: tuple[str, ...]  # pages not live that have children: their branches
    restrictions: tuple[tuple[PageViewRestriction, str], ...]  # with the restricted page's path
    # The languages pages are translated into (translation_target_languages), read with the rest:
    # the same writes change them, and one cache round trip a request is cheaper than two.
    translated_into: frozenset[str]


def visibility_facts(request: HttpRequest) -> VisibilityFacts:
    """The facts for `request`'s site, from the cache while the visibility version stands (read
    with it in one round trip, as cms.apicache.middleware reads responses), once per request.

    Five queries a request otherwise, on every uncached API request; no paper write changes
    them, so the first request after a sync batch does not read them again. Every write that
    can change them bumps the version (cms.apicache.stale.CHANGES_VISIBILITY). They are kept as
    long as cached responses are (API_RESPONSE_CACHE_SECONDS; 0 keeps nothing).
    """
    facts = getattr(request, FACTS_ATTRIBUTE, None)
    if facts is None:
        site_parameter = request.GET.get("site", "")
        # "-v2": entries kept before `translated_into` was a fact lack it.
        key = f"api-visibility-v2:{request.get_host()}:{request.get_port()}:{site_parameter}"
        facts = read_through(
            key,
            VISIBILITY_VERSION_KEY,
            lambda: read_visibility_facts(request),
            settings.API_RESPONSE_CACHE_SECONDS,
        )
        setattr(request, FACTS_ATTRIBUTE, facts)
    return facts


def read_visibility_facts(request: HttpRequest) -> VisibilityFacts:
    return site_facts(requested_site(request))


def site_facts(site: Site | None) -> VisibilityFacts:
    """The facts for `site` (none: no page is in a site), read from the database."""
    restrictions = list(PageViewRestriction.objects.all())
    # The paths in a query of their own, and only when some restriction exists: joined to the
    # restrictions, SQLite's planner scans the whole page table even when there are none.
    paths = dict(
        Page.objects.filter(pk__in={r.page_id for r in restrictions}).values_list("pk", "path")
    )
    return VisibilityFacts(
        root_paths=tuple(site_root_paths(site)) if site is not None else (),
        hidden_paths=tuple(
            Page.objects.filter(live=False, numchild__gt=0).values_list("path", flat=True)
        ),
        restrictions=tuple((r, paths[r.page_id]) for r in restrictions if r.page_id in paths),
        translated_into=translation_target_languages(),
    )


def translation_target_languages() -> frozenset[str]:
    """The language codes pages are translated into (enabled translations' target locales).

    A page in any other language has no translation status, so a listing of such pages needs
    no status query. The pages API reads them with the visibility facts, in the same cache
    round trip (VisibilityFacts.translated_into): every write to a
    Translation bumps their version (cms.apicache.stale.CHANGES_VISIBILITY).
    """
    targets = Translation.objects.filter(enabled=True).values_list(
        "target_locale__language_code", flat=True
    )
    return frozenset(targets.distinct())


def anonymous_rule(site: Site | None = None) -> PublicRule:
    """The rule for an anonymous reader of `site` (else the default site), where there is no
    request to ask: what the webhooks may name (cms.webhooks.events)."""
    if site is None:
        site = Site.objects.filter(is_default_site=True).first()
    return rule_from_facts(site_facts(site), lambda restriction: False)


def shown_to_anyone(page: Page, *, parent: Page | None = None, live: bool | None = None) -> bool:
    """Whether the pages API shows `page` to an anonymous reader of its site; with `parent`,
    as if it sat there (where a moved page was before), with `live`, as if it were (an
    unpublished page, before). The page's own restriction counts wherever it sits."""
    rule = anonymous_rule(page.get_site())
    restricted = PageViewRestriction.objects.filter(page_id=page.pk).exists()
    # The page's own entry among the hidden branches is its liveness, which `live` replaces.
    own = tuple(path for path in rule.excluded_paths if path != page.path)
    candidate = copy(page)
    if parent is not None:
        candidate.path = parent.path + page.path[-page.steplen :]
    if live is not None:
        candidate.live = live
    rule = PublicRule(rule.root_paths, own, passed_restriction=False)
    return not restricted and bool(rule.public_among([candidate]))


def site_root_paths(site: Site) -> list[str]:
    """The tree paths of the site's root page and of its translations (one query)."""
    root = Page.objects.filter(pk=site.root_page_id).values("translation_key")
    return list(Page.objects.filter(translation_key__in=root).values_list("path", flat=True))


def depends_on_requester(request: HttpRequest) -> bool:
    """Whether the API's answer to `request` may differ from an anonymous reader's.

    So for a request that passes a view restriction (a topic then lists private digests too).
    """
    return public_rule(request).passed_restriction


def private_for_who_sees_more(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """`view` (the sitemap, the feeds, the reader's shell), its answer made `private` for a
    request that passes a view restriction (it then lists or finds the private pages too), as
    the pages API's is: no shared cache hands it on."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args, **kwargs) -> HttpResponse:
        response = view(request, *args, **kwargs)
        if depends_on_requester(request):
            patch_cache_control(response, private=True)
        return response

    return wrapped


def requested_site(request: HttpRequest) -> Site | None:
    """The `?site=` filter's site, else the one serving the request (Wagtail's own lookups)."""
    if not request.GET.get("site"):
        return Site.find_for_request(request)
    try:
        return SiteFilterValidator(site=request.GET["site"], request=request).site_obj
    except ValueError as error:
        raise BadRequestError(str(error)) from error


def public_pages(request: HttpRequest, model: type[Page] = Page) -> QuerySet:
    """The pages of `model` (Page or a subclass) that the public API may show to `request`."""
    return model.objects.filter(public_page_condition(request))


LINK_TARGETS_ATTRIBUTE = "page_link_targets"


def link_targets(request: HttpRequest, ids: Iterable[int], language: str) -> dict[int, int]:
    """Where rich text in `language` that links to the pages `ids` should link, for `request`:
    to the page's translation in `language` if the API shows it (wagtail-localize keeps the
    English page's id in a translation's links), else to the page itself if the API shows it.
    A page with neither is left out: its link keeps its text and loses its target, so an
    unpublished or private page's address stays private.

    Answers are kept on the request, so a listing looks up all its pages' links at once
    (PagesAPIViewSet.prefetch_for_serializer) and each block asks again for free.
    """
    known: dict[tuple[int, str], int | None] = getattr(request, LINK_TARGETS_ATTRIBUTE, None) or {}
    setattr(request, LINK_TARGETS_ATTRIBUTE, known)
    ids = set(ids)
    wanted = {pk for pk in ids if (pk, language) not in known}
    if wanted:
        fields = (*RULE_FIELDS, "translation_key")
        pages = list(
            Page.objects.filter(pk__in=wanted)
            .select_related("locale")
            .only(*fields, "locale__language_code")
        )
        elsewhere = {p.translation_key for p in pages if p.locale.language_code != language}
        translations = {}
        if elsewhere:  # one query more, only for links into another language
            found = Page.objects.filter(
                translation_key__in=elsewhere, locale__language_code=language
            ).only(*fields)
            translations = {page.translation_key: page for page in found}
        public = {p.pk for p in public_rule(request).public_among([*pages, *translations.values()])}
        known.update({(pk, language): None for pk in wanted})
        for page in pages:
            translated = translations.get(page.translation_key)
            if translated is not None and translated.pk in public:
                known[(page.pk, language)] = translated.pk
            elif page.pk in public:
                known[(page.pk, language)] = page.pk
    return {pk: known[(pk, language)] for pk in ids if known[(pk, language)] is not None}


def images_used_by_pages(page_ids: Iterable[int] | None = None) -> dict[int, set[int]]:
    """Page id -> the ids of the images its live content uses (of `page_ids`, else of every
    page), from Wagtail's reference index: it reads the page row, which holds what is live
    (a draft is a revision)."""
    uses = ReferenceIndex.objects.filter(
        base_content_type=ContentType.objects.get_for_model(Page),
        to_content_type=ContentType.objects.get_for_model(get_image_model()),
    )
    if page_ids is not None:
        uses = uses.filter(object_id__in=[str(pk) for pk in page_ids])
    used: dict[int, set[int]] = {}
    for page_id, image_id in uses.values_list("object_id", "to_object_id"):
        used.setdefault(int(page_id), set()).add(int(image_id))
    return used


def images_used_by_public_pages(request: HttpRequest) -> set[int]:
    """The ids of the images a page the API shows to `request` uses. Anything else, an upload
    only a draft or a private page uses, stays out of the images endpoint: its title would
    tell what is coming."""
    used = images_used_by_pages()
    pages = Page.objects.filter(pk__in=used).only(*RULE_FIELDS)
    return {image for page in public_rule(request).public_among(pages) for image in used[page.pk]}
