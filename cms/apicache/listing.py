"""For Wagtail's pages API: listings sent from the stored representations of their items.

Wagtail's listing builds every page of the result as a model instance, prefetches its relations
and serializes it field by field, for every request. Here a listing reads its pages' ids with
their stored items in one query (after the same filters, ordering and pagination), and only
items that are missing or stale go through that path, to be stored (cms.apicache.representations).
A listing this does not apply to (another `fields` value, an indented or browsable rendering, a
request whose items differ from other readers') is Wagtail's own.
"""

from __future__ import annotations

from django.conf import settings
from django.db.models import QuerySet
from django.utils import translation
from rest_framework.renderers import BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response
from wagtail.api.v2.utils import page_models_from_string
from wagtail.models import Page

from .listing_plans import plans
from .representations import current_body, languages, store, with_stored


class PrerenderedJSON:
    """A response body already rendered to compact JSON bytes."""

    __slots__ = ("content",)

    def __init__(self, content: bytes):
        self.content = content


class StoredJSONRenderer(JSONRenderer):
    """DRF's JSON renderer, which sends a pre-rendered body as it is."""

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if isinstance(data, PrerenderedJSON):
            return data.content
        return super().render(data, accepted_media_type, renderer_context)


def counted_by(queryset: QuerySet, counter: QuerySet) -> QuerySet:
    """A copy of `queryset` whose count() - all Wagtail's pagination asks of it besides a
    slice - counts `counter` (the same rows, read another way)."""
    if counter is queryset:
        return queryset
    queryset = queryset.all()
    queryset.count = counter.count
    return queryset


class StoredListingMixin:
    """For a PagesAPIViewSet: `fields=*` listings of `stored_models` from stored items.

    The viewset says whether a request's items are the bytes any reader of its site would get
    (`lists_as_anyone`), and may count a listing another way (`count_queryset`).
    """

    stored_models: tuple[type[Page], ...] = ()
    renderer_classes = [StoredJSONRenderer, BrowsableAPIRenderer]

    def count_queryset(self, queryset: QuerySet) -> QuerySet:
        return queryset

    def lists_as_anyone(self) -> bool:
        return False

    def prefetch_for_serializer(self, pages) -> None:
        """Load what the serializer reads for all `pages` at once (the viewset's own)."""

    def listing_view(self, request):
        if not self.lists_stored_items():
            return super().listing_view(request)
        language = translation.get_language()
        read = self.read_rows(language)
        if read is None:
            return super().listing_view(request)
        total, rows, queryset = read
        missing = {page_id: generation for page_id, generation, body in rows if body is None}
        built = {}
        if missing:
            queryset = queryset if queryset is not None else self.filtered_queryset()
            built = self.build_items(queryset, missing) if queryset is not None else {}
        if len(built) < len(missing):  # a page left the listing between the two reads
            return super().listing_view(request)
        if built:
            store(language, missing, built)
        items = ",".join(built[page_id] if body is None else body for page_id, _g, body in rows)
        content = f'{{"meta":{{"total_count":{total}}},"items":[{items}]}}'
        return Response(PrerenderedJSON(content.encode()))

    def read_rows(self, language: str) -> tuple[int, list[tuple], QuerySet | None] | None:
        """The listing's total and its page of (id, generation, stored body) rows, with the
        filtered queryset when it had to be built (None: only Wagtail's listing handles it)."""
        key = plans.key(self.request, language)
        plan = plans.get(key)
        queryset = None
        if plan is not None:
            total, rows = plan.run()
        else:
            queryset = self.filtered_queryset()
            if queryset is None:
                return None
            counted = counted_by(with_stored(queryset, language), self.count_queryset(queryset))
            with plans.recording(key):
                rows = list(self.paginator.paginate_queryset(counted, self.request, view=self))
            total = self.paginator.total_count
        rows = [(page_id, gen, current_body(body, form)) for page_id, gen, body, form in rows]
        return total, rows, queryset

    def filtered_queryset(self) -> QuerySet | None:
        """The listing's pages after Wagtail's parameter checks and filters (None: not a
        queryset, which only Wagtail's own listing handles)."""
        queryset = self.get_queryset()
        self.check_query_parameters(queryset)
        queryset = self.filter_queryset(queryset)
        return queryset if isinstance(queryset, QuerySet) else None

    def stored_model(self) -> type[Page] | None:
        """The one stored model the request's `type` names, if it names one."""
        try:
            models = page_models_from_string(self.request.GET.get("type", ""))
        except (LookupError, ValueError):
            return None
        return models[0] if len(models) == 1 and models[0] in self.stored_models else None

    def lists_stored_items(self) -> bool:
        request = self.request
        renderer = getattr(request, "accepted_renderer", None)
        return (
            getattr(settings, "API_STORED_REPRESENTATIONS", True)
            and request.GET.get("fields") == "*"
            and self.stored_model() is not None
            and isinstance(renderer, StoredJSONRenderer)
            and renderer.get_indent(request.accepted_media_type, self.get_renderer_context())
            is None
            and translation.get_language() in languages()
            and self.lists_as_anyone()
        )

    def build_items(self, queryset: QuerySet, page_ids) -> dict[int, str]:
        """The list items of these pages, built and rendered as Wagtail's listing does."""
        pages = list(queryset.filter(pk__in=list(page_ids)))
        self.prefetch_for_serializer(pages)
        renderer = self.request.accepted_renderer
        media_type = self.request.accepted_media_type
        context = self.get_renderer_context()
        return {
            item["id"]: renderer.render(item, media_type, context).decode()
            for item in self.get_serializer(pages, many=True).data
        }
