"""Validation of API query parameters that Wagtail's filters leave to the database.

Wagtail answers most bad parameters with a 400 already; these checks close the gaps where a value
would reach the database and fail there (a NUL byte, an integer past the column's range, a date
that does not parse, a filter on a StreamField), so every bad parameter is a 400 naming it and the
API never answers 500 to a query string.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from datetime import datetime

from django.conf import settings
from django.core.exceptions import FieldDoesNotExist, ValidationError
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.http import Http404, QueryDict
from django.utils import timezone
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _
from rest_framework.filters import BaseFilterBackend
from taggit.managers import TaggableManager
from wagtail.api.v2.filters import OrderingFilter
from wagtail.api.v2.utils import BadRequestError, parse_boolean
from wagtail.fields import StreamField

# Page and object ids are 32-bit in Wagtail's tables; offsets beyond this are never meaningful.
MAX_INTEGER = 2**31 - 1

# Parameters that hold an id or a count; "root" is Wagtail's name for the site's root page.
INTEGER_PARAMETERS = ("limit", "offset", "id", "child_of", "descendant_of", "ancestor_of")
ROOT_OR_INTEGER_PARAMETERS = ("child_of", "descendant_of", "translation_of")

# A parameter that means something only beside another (and, when given, one value of it): alone
# it was silently ignored, so `?search_operator=AAA` answered 200 with the whole listing.
PARAMETER_NEEDS: Mapping[str, tuple[str, str | None]] = {"search_operator": ("search", None)}

TEXT_FIELDS = (models.CharField, models.TextField)
INTEGER_FIELDS = (models.IntegerField, models.AutoField, models.ForeignKey)
TEMPORAL_FIELDS = (models.DateTimeField, models.DateField)


def check_integer(name: str, value: str) -> int:
    """A non-negative integer that fits the id columns, or a 400 naming the parameter.

    The message says "non-negative": 0 is a valid `limit` (the count alone) and `offset`.
    """
    try:
        number = int(value)
    except ValueError:
        number = -1
    digits = value.strip()
    if number < 0 or not (digits.isascii() and digits.isdigit()):  # int() takes any Unicode digit
        raise BadRequestError(
            _("%(name)s must be a non-negative integer") % {"name": name},
        )
    if number > MAX_INTEGER:
        raise BadRequestError(
            _("%(name)s must be at most %(max)d") % {"name": name, "max": MAX_INTEGER},
        )
    return number


def validate_query_parameters(params: QueryDict) -> None:
    """Reject values no filter can use; run before any filter touches the database.

    A parameter given twice is refused: the views would read its last value, while a proxy, a
    CDN rule or a log reader in front of them may read the first (as the cite view does).
    """
    for name, value in params.items():
        if "\x00" in name or "\x00" in value:
            raise BadRequestError(_("null characters are not allowed in query parameters"))
    if message := repeated_parameter_message(params) or missing_companion_message(params):
        raise BadRequestError(message)
    for name in INTEGER_PARAMETERS + ROOT_OR_INTEGER_PARAMETERS:
        value = params.get(name)
        if value is None or (name in ROOT_OR_INTEGER_PARAMETERS and value == "root"):
            continue
        check_integer(name, value)


def repeated_parameter_message(params: QueryDict) -> str:
    """The 400 message naming a parameter given more than once, or "" when there is none: the
    one wording of this answer for every view under /api/."""
    for name, values in params.lists():
        if len(values) > 1:
            return _("%(name)s is given more than once") % {"name": name}
    return ""


def missing_companion_message(
    params: Mapping[str, str], needs: Mapping[str, tuple[str, str | None]] = PARAMETER_NEEDS
) -> str:
    """The 400 message naming a parameter given without the one it needs (`needs` maps it to
    that parameter and, if only one of its values will do, that value), or "" when none is:
    the one wording of this answer for every view under /api/."""
    for name, (other, value) in needs.items():
        if name not in params:
            continue
        if value is None and other not in params:
            return _("%(name)s needs %(other)s") % {"name": name, "other": other}
        if value is not None and params.get(other) != value:
            return _("%(name)s needs %(other)s=%(value)s") % {
                "name": name,
                "other": other,
                "value": value,
            }
    return ""


def parse_filter_value(field: models.Field, name: str, value: str) -> object:
    """Turn ?name=value into a value the ORM can compare with `field`, or raise a 400."""
    if isinstance(field, models.BooleanField):
        try:
            return parse_boolean(value)
        except ValueError as error:
            raise BadRequestError(
                _("%(name)s must be true or false") % {"name": name},
            ) from error
    if isinstance(field, INTEGER_FIELDS):
        return check_column_integer(field, name, value)
    if isinstance(field, TEMPORAL_FIELDS):
        try:
            parsed = field.to_python(value)
        except ValidationError:
            parsed = None
        if parsed is None:
            raise BadRequestError(
                _("%(name)s must be an ISO 8601 date or date and time") % {"name": name},
            )
        if isinstance(parsed, datetime) and settings.USE_TZ and timezone.is_naive(parsed):
            parsed = timezone.make_aware(parsed)  # in TIME_ZONE, as the API writes them (UTC)
        return parsed
    if isinstance(field, TEXT_FIELDS) and not isinstance(field, StreamField):
        return check_text(field, name, value)
    raise BadRequestError(_("cannot filter by %(name)s") % {"name": name})


def check_column_integer(field: models.Field, name: str, value: str) -> int:
    """check_integer, and at most what the field's column holds (a paper's `year` is a small
    integer: `?year=32768` matches nothing and the API description rules it out). The range
    is the SQL column type's, as Django's base operations give it, so that the answer is the
    same on every database (SQLite would take any 64-bit integer)."""
    number = check_integer(name, value)
    column = field.target_field if isinstance(field, models.ForeignKey) else field
    _lowest, highest = BaseDatabaseOperations.integer_field_ranges.get(
        column.get_internal_type(), (0, MAX_INTEGER)
    )
    if number > highest:
        raise BadRequestError(
            _("%(name)s must be at most %(max)d") % {"name": name, "max": highest},
        )
    return number


def check_text(field: models.Field, name: str, value: str) -> str:
    """A value the text field could hold, or a 400: one longer than the column, or outside the
    field's choices (a paper's `venue`), matches nothing, and the API description rules it out;
    answering an empty listing would hide the client's mistake."""
    if field.max_length and len(value) > field.max_length:
        raise BadRequestError(
            _("%(name)s must be at most %(max)d characters")
            % {"name": name, "max": field.max_length}
        )
    choices = [str(choice) for choice, _label in field.flatchoices]
    if choices and value not in choices:
        raise BadRequestError(
            _("%(name)s must be one of: %(choices)s")
            % {"name": name, "choices": ", ".join(choices)}
        )
    return value


def filter_condition(field: models.Field, name: str, value: str) -> dict[str, object]:
    """The ORM condition of ?name=value: the field equals the value, except that a date given
    for a date-and-time field (`first_published_at=2026-01-31`) matches that whole day, in
    TIME_ZONE; an instant exactly would match no page published on it."""
    if isinstance(field, models.DateTimeField):
        try:
            day = parse_date(value)
        except ValueError:
            day = None  # well formed but no such day: parse_filter_value's 400
        if day is not None:
            return {f"{name}__date": day}
    return {name: parse_filter_value(field, name, value)}


class StrictFieldsFilter(BaseFilterBackend):
    """Wagtail's ?field=value filtering, with every value checked before it reaches the ORM.

    Tags (`?tags=a,b`, the images' and documents') match as in Wagtail: items with every tag.
    """

    def filter_queryset(self, request, queryset, view):
        fields = set(view.get_available_fields(queryset.model, db_fields_only=True))
        fields.discard("locale")  # filtered by LocaleFilter
        for name, value in request.GET.items():
            if name not in fields:
                continue
            field = queryset.model._meta.get_field(name)
            if isinstance(field, TaggableManager):
                for tag in value.split(","):
                    queryset = queryset.filter(**{f"{name}__name": tag})
                continue
            queryset = queryset.filter(**filter_condition(field, name, value))
        return queryset


class StrictOrderingFilter(OrderingFilter):
    """Wagtail's `order`, refusing a field that holds many values (a paper's authors): ordering
    by one repeats each row once per value, so a listing's items outnumber its total_count."""

    def filter_queryset(self, request, queryset, view):
        for name in request.GET.get("order", "").split(","):
            try:
                field = queryset.model._meta.get_field(name.lstrip("-"))
            except FieldDoesNotExist:
                continue  # Wagtail's own check names it
            if field.one_to_many or field.many_to_many:
                raise BadRequestError(
                    _("cannot order by %(name)r (it holds many values)") % {"name": name}
                )
        return super().filter_queryset(request, queryset, view)


def unknown_parameters_message(params: Mapping[str, str], allowed: Collection[str]) -> str:
    """The 400 message naming every parameter outside `allowed`, or "" when there is none.

    The one wording of this answer for every view under /api/ (Wagtail's own, for its listings).
    """
    unknown = sorted(set(params) - set(allowed))
    if not unknown:
        return ""
    return _("query parameter is not an operation or a recognised field: %(names)s") % {
        "names": ", ".join(unknown)
    }


def reject_unknown_parameters(params: Mapping[str, str], allowed: Collection[str]) -> None:
    """A 400 naming every parameter outside `allowed` (Wagtail checks only its listings)."""
    if message := unknown_parameters_message(params, allowed):
        raise BadRequestError(message)


class StrictQueryParametersMixin:
    """For Wagtail API viewsets: validate the query string before any filter runs.

    Wagtail's listing view rejects unknown parameters; its detail and find views ignore them
    though they run the same filters (DRF's get_object filters the queryset), so here they get
    the listing's own check.
    """

    detail_query_parameters = frozenset({"fields", "format", "rich_text_format", "_"})

    def find_object(self, queryset, request):
        """Wagtail's, among what the filters keep: find/ redirects with its other parameters
        (`locale`, `type`, ...) and the detail filters by them, so a page or paper they rule
        out is not found here either, rather than found and then a 404 at its detail."""
        return super().find_object(self.filter_queryset(queryset), request)

    def find_view(self, request):
        """Wagtail's find/, whose 404 said only "not found": here it names what was looked
        for (the same words whether nothing is there or it is not public)."""
        try:
            return super().find_view(request)
        except Http404 as error:
            given = ", ".join(
                f"{name}={request.GET[name]!r}"
                for name in sorted(self.find_query_parameters)
                if request.GET.get(name)
            )
            raise Http404(_("nothing found for %(given)s") % {"given": given}) from error

    def initial(self, request, *args, **kwargs):
        super().initial(request, *args, **kwargs)
        validate_query_parameters(request.GET)
        action = getattr(self, "action", None)
        if action == "find_view":  # find/ takes what finds the object (a page's address too)
            finders = sorted(self.find_query_parameters)
            if not any(request.GET.get(name) for name in finders):
                raise BadRequestError(
                    _("find/ needs one of: %(names)s") % {"names": ", ".join(finders)}
                )
            self.known_query_parameters = self.known_query_parameters | self.find_query_parameters
        # Only a parameter outside the known operations can be unknown; the field names that
        # allow the rest are those of the requested type's queryset, costly to build.
        others = set(request.GET) - self.known_query_parameters
        if action in ("detail_view", "find_view") and others:
            self.check_query_parameters(self.get_queryset())
