"""A comparable picture of everything an import writes: pages, revisions, logs, localize data.

An import that refuses its file must leave the snapshot as it was (test_import_files.py).
Primary keys, timestamps and random UUIDs differ between any two runs (PostgreSQL sequences are
not rolled back), so every row is rendered with its foreign keys replaced by natural keys (a
page by locale and URL path, a revision by its page and rank, a string by its text...), every
datetime by a marker, and the JSON of revisions, sources and log entries normalised the same way.
"""

from __future__ import annotations

import datetime
import json
import uuid
from collections import defaultdict
from typing import Any

from django.contrib.contenttypes.models import ContentType
from django.db import models
from wagtail.models import Page, PageLogEntry, ReferenceIndex, Revision
from wagtail.search.models import IndexEntry
from wagtail_localize import models as localize

from cms.digests.models import DigestIndexPage, DigestPage, TopicPage
from cms.papers.models import Paper, PaperAffiliation, PaperAuthor, PaperLink

DATETIME = "<datetime>"
SNAPSHOT_MODELS = [
    Page,
    DigestIndexPage,
    TopicPage,
    DigestPage,
    Revision,
    PageLogEntry,
    ReferenceIndex,
    IndexEntry,
    Paper,
    PaperAffiliation,
    PaperAuthor,
    PaperLink,
    localize.TranslatableObject,
    localize.TranslationSource,
    localize.Translation,
    localize.TranslationLog,
    localize.String,
    localize.TranslationContext,
    localize.StringTranslation,
    localize.StringSegment,
    localize.TemplateSegment,
    localize.RelatedObjectSegment,
    localize.OverridableSegment,
    localize.SegmentOverride,
]


class _Keys:
    """Natural keys for the rows other rows point at."""

    def __init__(self) -> None:
        self.content_types = {
            ct.pk: f"{ct.app_label}.{ct.model}" for ct in ContentType.objects.all()
        }
        pages = list(
            Page.objects.values("pk", "locale__language_code", "url_path", "translation_key")
        )
        self.pages = {
            row["pk"]: f"{row['locale__language_code']}:{row['url_path']}" for row in pages
        }
        by_key: dict[Any, list[str]] = defaultdict(list)
        for row in pages:
            by_key[row["translation_key"]].append(self.pages[row["pk"]])
        self.translation_keys = {key: "key:" + min(names) for key, names in by_key.items()}
        self.revisions: dict[int, str] = {}
        ranked: dict[tuple, int] = defaultdict(int)
        for revision in Revision.objects.order_by("created_at", "pk").values(
            "pk", "base_content_type_id", "object_id"
        ):
            owner = self.object(revision["base_content_type_id"], revision["object_id"])
            ranked[owner] += 1
            self.revisions[revision["pk"]] = f"{owner}#rev{ranked[owner]}"
        self.papers = dict(Paper.objects.values_list("pk", "title"))
        self.sources = {
            source.pk: (self.translation_key(source.object_id), source.locale.language_code)
            for source in localize.TranslationSource.objects.select_related("locale")
        }
        self.strings = {
            string.pk: (string.locale.language_code, string.data)
            for string in localize.String.objects.select_related("locale")
        }
        self.contexts = {
            context.pk: (self.translation_key(context.object_id), context.path)
            for context in localize.TranslationContext.objects.all()
        }
        self.translations = {
            translation.pk: (self.sources[translation.source_id], translation.target_locale_id)
            for translation in localize.Translation.objects.all()
        }

    def translation_key(self, key: Any) -> str:
        key = uuid.UUID(str(key))
        return self.translation_keys.get(key, "<unknown translation key>")

    def object(self, content_type_id: int, object_id: Any) -> str:
        label = self.content_types.get(content_type_id, "?")
        if label.startswith(("wagtailcore.page", "digests.")):
            return self.pages.get(int(object_id), f"<missing page {object_id}>")
        if label == "papers.paper":
            return "paper:" + self.papers.get(int(object_id), f"<missing {object_id}>")
        return f"{label}:{object_id}"

    def foreign(self, field: models.ForeignKey, value: Any) -> Any:
        if value is None:
            return None
        model = field.related_model
        if model is ContentType:
            return self.content_types[value]
        if issubclass(model, Page):  # log entries outlive their pages
            return self.pages.get(value, f"<deleted page {value}>")
        lookups = {
            Revision: self.revisions,
            Paper: self.papers,
            localize.TranslationSource: self.sources,
            localize.String: self.strings,
            localize.TranslationContext: self.contexts,
            localize.Translation: self.translations,
        }
        if model in lookups:  # log entries keep the ids of revisions deleted with their page
            return lookups[model].get(value, f"<deleted {model._meta.label} {value}>")
        if model is localize.TranslatableObject:
            return self.translation_key(value)
        if model._meta.label == "wagtailcore.Locale":
            return _locale_code(value)
        return f"{model._meta.label}:{value}"


_LOCALES: dict[int, str] = {}


def _locale_code(pk: int) -> str:
    if pk not in _LOCALES:
        from wagtail.models import Locale

        _LOCALES.update(Locale.objects.values_list("pk", "language_code"))
    return _LOCALES[pk]


def _instance_json(keys: _Keys, model: type[models.Model], data: dict) -> dict:
    """Normalise a serialised model instance (a revision's content, a source's content_json)."""
    fields = {field.name: field for field in model._meta.concrete_fields}
    out = {}
    for name, value in data.items():
        field = fields.get(name)
        if name == "pk" or (field is not None and field.primary_key):
            value = keys.pages.get(value, value) if issubclass(model, Page) else "<pk>"
        elif isinstance(field, models.ForeignKey):
            value = keys.foreign(field, value)
        elif name == "translation_key" and value:
            value = keys.translation_key(value)
        elif isinstance(field, models.DateTimeField) and value:
            value = DATETIME
        out[name] = value
    return out


def _log_json(data: Any) -> Any:
    """Log entry data: ids replaced by a marker, the rest (titles, locales, flags) kept."""
    if isinstance(data, dict):
        return {name: "<id>" if name == "id" else _log_json(value) for name, value in data.items()}
    if isinstance(data, list):
        return [_log_json(value) for value in data]
    return data


_PAGE_FOREIGN_KEYS = {
    field.name: field
    for model in (DigestIndexPage, TopicPage, DigestPage)
    for field in model._meta.concrete_fields
    if isinstance(field, models.ForeignKey)
}


def _overridable_json(keys: _Keys, context_id: int, value: str) -> str:
    """A synchronised foreign key's segment holds the related row's pk: name the row instead."""
    _object, path = keys.contexts[context_id]
    if path in _PAGE_FOREIGN_KEYS:
        return keys.foreign(_PAGE_FOREIGN_KEYS[path], json.loads(value))
    return value


def _model_of(keys: _Keys, content_type_id: int) -> type[models.Model]:
    app_label, model = keys.content_types[content_type_id].split(".")
    return ContentType.objects.get_by_natural_key(app_label, model).model_class()


def _row(keys: _Keys, model: type[models.Model], obj: models.Model) -> tuple:
    rendered = []
    for field in model._meta.concrete_fields:
        value = getattr(obj, field.attname)
        name = field.name
        if model is localize.TranslatableObject and name == "translation_key":
            value = keys.translation_key(value)
        elif field.primary_key or (
            isinstance(field, models.OneToOneField) and field.remote_field.parent_link
        ):
            if issubclass(model, Page):
                value = keys.pages[obj.pk]
            else:
                continue
        elif isinstance(field, models.ForeignKey):
            value = keys.foreign(field, value)
        elif name == "translation_key":
            value = keys.translation_key(value)
        elif isinstance(value, datetime.datetime):
            value = DATETIME
        elif isinstance(value, uuid.UUID):
            value = "<uuid>"
        elif name == "object_id" and hasattr(obj, "base_content_type_id"):
            value = keys.object(obj.base_content_type_id, value)
        elif name == "object_id" and model is IndexEntry:
            value = keys.object(obj.content_type_id, value)
        elif name == "to_object_id":
            value = keys.object(obj.to_content_type_id, value)
        elif model is Revision and name == "content":
            value = _instance_json(keys, _model_of(keys, obj.content_type_id), value)
        elif model is localize.TranslationSource and name == "content_json":
            content = json.loads(value)
            value = _instance_json(keys, _model_of(keys, obj.specific_content_type_id), content)
        elif model is PageLogEntry and name == "data":
            value = _log_json(value)
        elif model is localize.OverridableSegment and name == "data_json":
            value = _overridable_json(keys, obj.context_id, value)
        rendered.append((name, json.dumps(value, sort_keys=True, default=str)))
    return tuple(rendered)


def snapshot() -> dict[str, list[tuple]]:
    """Every row of the models an import writes, normalised and sorted, per model."""
    keys = _Keys()
    return {
        model._meta.label: sorted(_row(keys, model, obj) for obj in model._base_manager.all())
        for model in SNAPSHOT_MODELS
    }


def differences(before: dict[str, list[tuple]], after: dict[str, list[tuple]]) -> dict:
    """Rows only in one of two snapshots, per model (empty when they are equal)."""
    out = {}
    for label in before:
        left, right = set(before[label]), set(after[label])
        if left != right or len(before[label]) != len(after[label]):
            out[label] = {
                "only_first": sorted(left - right),
                "only_second": sorted(right - left),
                "counts": (len(before[label]), len(after[label])),
            }
    return out
