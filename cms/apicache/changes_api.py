"""`GET /api/v2/changes/?locale=en|zh-hant[&since=CURSOR][&limit=N][&type=app.Model]`.

What changed in one language's public pages since a cursor, oldest first, one item per page
(its latest state, from cms.apicache.changes' log). Without `since` the feed starts from the
beginning and lists only pages that are public now, so following `meta.next` to the end
replays exactly the live site; with `since` it lists deletions too. A response reads the log
once (one query, a range scan of the `(locale, seq, page_id)` index as long as the response),
whatever the size of the site. The view is an anonymous reader's: a page a view restriction
hides is a deletion for everyone.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db.models import Q, QuerySet, Subquery
from django.urls import path
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers
from rest_framework.exceptions import APIException
from rest_framework.response import Response
from wagtail.api.v2.utils import BadRequestError, get_object_detail_url
from wagtail.api.v2.views import BaseAPIViewSet
from wagtail.coreutils import get_content_languages
from wagtail.models import Page, get_page_models

from cms.api.filters import requested_language
from cms.api.http import PublicAPIMixin
from cms.api.params import check_integer, reject_unknown_parameters
from cms.digests.api import requested_page_types

from .changes import AFTER_WRITE, COUNTER_PK, Cursor, decode_cursor, encode_cursor, head_cursor
from .models import ChangeCounter, PageChange


class ChangeLogRebuilt(APIException):
    """A cursor of an earlier epoch: the log was rebuilt and its positions mean nothing now."""

    status_code = 410
    default_detail = gettext_lazy("the change log was rebuilt: start again without since")
    default_code = "gone"


def requested_limit(request) -> int:
    """`limit`, 1 to WAGTAILAPI_LIMIT_MAX (the pages listing's maximum), that by default."""
    highest = settings.WAGTAILAPI_LIMIT_MAX
    if "limit" not in request.GET:
        return highest
    limit = check_integer("limit", request.GET["limit"])
    if not 1 <= limit <= highest:
        raise BadRequestError(
            _("limit must be between 1 and %(max)d") % {"max": highest},
        )
    return limit


def requested_cursor(request) -> Cursor | None:
    value = request.GET.get("since")
    if value is None:
        return None
    try:
        return decode_cursor(value)
    except ValueError as error:
        raise BadRequestError(_("since is not a cursor of this feed")) from error


def requested_page_labels(request) -> list[str] | None:
    """The `app_label.Model` of each page type `type` names and of their subclasses; None for
    every type."""
    value = request.GET.get("type")
    if not value:
        return None
    models = requested_page_types(value)
    if Page in models:
        return None
    return sorted({model._meta.label for model in get_page_models() if issubclass(model, models)})


class ChangesAPIViewSet(PublicAPIMixin, BaseAPIViewSet):
    """A listing only: no detail, no find (an item's `detail_url` is the page's)."""

    model = PageChange
    name = "changes"
    known_query_parameters = frozenset({"locale", "since", "limit", "type", "format", "_"})

    @classmethod
    def get_urlpatterns(cls):
        return [path("", cls.as_view({"get": "listing_view"}), name="listing")]

    def listing_view(self, request):
        reject_unknown_parameters(request.GET, self.known_query_parameters)
        locale = requested_language(request)
        if locale is None:
            raise BadRequestError(
                _("locale is required: one of %(known)s")
                % {"known": ", ".join(get_content_languages())}
            )
        limit = requested_limit(request)
        since = requested_cursor(request)
        rows = list(self.changes(locale, since, requested_page_labels(request))[: limit + 1])
        if since is not None and rows and rows[0].epoch != since.epoch:
            raise ChangeLogRebuilt()
        shown = rows[:limit]
        if shown and since is None and len(rows) <= limit:
            # A whole replay in one answer: past every row it could have listed (deletions
            # of pages it never listed included), as of the statement that read it.
            next_cursor = encode_cursor(Cursor(shown[0].epoch, shown[0].head, AFTER_WRITE))
        elif shown:
            last = shown[-1]
            next_cursor = encode_cursor(Cursor(last.epoch, last.seq, last.page_id))
        elif since is not None:
            next_cursor = request.GET["since"]
        else:
            next_cursor = head_cursor()  # an empty log: its head, in one query more
        return Response(
            {
                "items": [self.item(row) for row in shown],
                "meta": {"next": next_cursor, "has_more": len(rows) > limit},
            }
        )

    @staticmethod
    def changes(locale: str, since: Cursor | None, labels: list[str] | None) -> QuerySet:
        """The log of `locale` after `since` in feed order, each row with the log's epoch and
        head (read in the same statement); from the start, the pages public now only."""
        rows = PageChange.objects.filter(locale=locale)
        if since is None:
            rows = rows.filter(action=PageChange.UPSERT)
        else:
            rows = rows.filter(Q(seq__gt=since.seq) | Q(seq=since.seq, page_id__gt=since.page_id))
        if labels is not None:
            rows = rows.filter(page_type__in=labels)
        counter = ChangeCounter.objects.filter(pk=COUNTER_PK)
        return rows.annotate(
            epoch=Subquery(counter.values("epoch")[:1]),
            head=Subquery(counter.values("value")[:1]),
        ).order_by("seq", "page_id")

    def item(self, row: PageChange) -> dict[str, Any]:
        request = self.request
        return {
            "id": row.page_id,
            "type": row.page_type,
            "locale": row.locale,
            "action": row.action,
            "html_path": row.html_path,
            "detail_url": get_object_detail_url(
                request.wagtailapi_router, request, Page, row.page_id
            ),
            "changed_at": serializers.DateTimeField().to_representation(row.changed_at),
        }

    def content_languages(self) -> set[str]:
        code = requested_language(self.request)
        return {code} if code else set()
