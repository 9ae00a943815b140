"""`/api/v2/page_preview/`: the draft behind a wagtail-headless-preview token, never the live page.

The admin's preview stores the draft as a `PagePreview` row and opens the front end with
`?content_type=app.model&token=...`; the front end asks this endpoint for that draft. The token
is the library's signed identifier; we also enforce an age limit on it (the library only
garbage-collects rows a day old), so a leaked link stops working after PREVIEW_TOKEN_MAX_AGE.
"""

from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.signing import BadSignature, SignatureExpired
from django.http import Http404
from django.urls import URLPattern
from django.utils.translation import gettext as _
from rest_framework.response import Response
from wagtail.api.v2.utils import BadRequestError
from wagtail.api.v2.views import PagesAPIViewSet
from wagtail.models import Page
from wagtail_headless_preview.models import HeadlessPreviewMixin, PagePreview

from cms.api.http import JSONBodyMixin
from cms.api.params import (
    StrictQueryParametersMixin,
    reject_unknown_parameters,
    validate_query_parameters,
)
from cms.api.serializers import PageSerializer

PREVIEW_QUERY_PARAMETERS = StrictQueryParametersMixin.detail_query_parameters | {
    "content_type",
    "token",
}


class PreviewExpired(Http404):
    """The token was valid once but is older than PREVIEW_TOKEN_MAX_AGE."""


class PagePreviewAPIViewSet(JSONBodyMixin, PagesAPIViewSet):
    """One draft page per request, serialized with the same fields and serializer as the pages
    detail view (Wagtail's viewset: the public pages' rules and caching do not apply)."""

    base_serializer_class = PageSerializer

    name = "page_preview"

    @classmethod
    def get_urlpatterns(cls) -> list[URLPattern]:
        """The listing and detail addresses only: Wagtail's find/ would look pages up by id
        or address under Wagtail's rule, not the public API's, and redirect to their ids (a
        live digest below an unpublished topic, say). Previews are found by token alone."""
        return [pattern for pattern in super().get_urlpatterns() if pattern.name != "find"]

    def initial(self, request, *args, **kwargs):
        """The query string checks every API view makes (null characters, a parameter given
        twice) before the token or content type reach the database: PostgreSQL refuses a NUL
        byte in a text value with an error, which answered 500."""
        super().initial(request, *args, **kwargs)
        validate_query_parameters(request.GET)

    def listing_view(self, request):
        reject_unknown_parameters(request.GET, PREVIEW_QUERY_PARAMETERS)
        # Serialized as a detail (Wagtail's get_serializer_class reads the action): the
        # preview's own type, with detail fields.
        self.action = "detail_view"
        return self.detail_view(request, pk=None)

    def detail_view(self, request, pk):
        response = Response(self.get_serializer(self.get_object()).data)
        # A draft is for the editor who asked for it: never cache it, never index it.
        response["Cache-Control"] = "private, no-store"
        response["X-Robots-Tag"] = "noindex"
        return response

    def handle_exception(self, exc):
        if isinstance(exc, PreviewExpired):
            return Response({"message": str(exc)}, status=410)
        return super().handle_exception(exc)

    def get_object(self) -> Page:
        if getattr(self, "preview_page", None) is None:
            self.preview_page = self.page_from_token()
        return self.preview_page

    def page_from_token(self) -> Page:
        model = self.preview_model()
        token = self.request.GET.get("token", "")
        if not token:
            raise BadRequestError(_("the 'token' parameter is required"))
        try:
            model.get_preview_signer().unsign(token, max_age=settings.PREVIEW_TOKEN_MAX_AGE)
        except SignatureExpired as error:
            raise PreviewExpired(
                _("this preview link has expired; open the preview again from the editor")
            ) from error
        except BadSignature as error:
            raise Http404(_("no preview matches this token")) from error
        preview = PagePreview.objects.filter(
            content_type=ContentType.objects.get_for_model(model), token=token
        ).first()
        if preview is None:
            raise Http404(_("no preview matches this token"))
        page = preview.as_page()
        if page.pk is None:
            # A page that was never saved: the detail serializer needs some primary key.
            page.pk = 0
        return page

    def preview_model(self) -> type[HeadlessPreviewMixin]:
        label = self.request.GET.get("content_type", "")
        app_label, _dot, model_name = label.partition(".")
        content_type = ContentType.objects.filter(
            app_label=app_label, model=model_name.lower()
        ).first()
        model = content_type.model_class() if content_type else None
        previewable = model is not None and issubclass(model, Page)
        if not (previewable and issubclass(model, HeadlessPreviewMixin)):
            raise BadRequestError(
                _("'content_type' must be a previewable page type like %(example)s, got %(value)r")
                % {"example": "digests.digestpage", "value": label}
            )
        return model
