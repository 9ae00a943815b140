"""Index each object an import touches once, at the end, instead of on every one of its saves.

Creating and publishing a page and its translation saves each page three or four times, and
every save queues a search-index and a reference-index update (run inline without a task
worker): most of an import's time. Wagtail offers `disable_reference_index_auto_update` for the
reference index; modelsearch has no such switch, so its save handler is disconnected for the
duration and the collected objects are indexed in bulk before the caller's transaction ends.
Rows written with `bulk_create()` send no save signal: their writer adds them with
`DeferredIndex.add()`. Meant for management commands (imports), not for web requests running
concurrently in the same process.
"""

from collections import defaultdict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from django.contrib.contenttypes.models import ContentType
from django.db.models import Model
from django.db.models.signals import post_save
from modelcluster.models import get_all_child_relations
from modelsearch import index
from modelsearch.backends import get_search_backends
from modelsearch.signal_handlers import post_save_signal_handler
from wagtail.models import ReferenceIndex
from wagtail.signal_handlers import disable_reference_index_auto_update

_COLLECTOR_UID = "deferred-indexing-collector"


class DeferredIndex:
    """The objects to index when the block ends, by model."""

    def __init__(self) -> None:
        self.touched: dict[type[Model], set] = defaultdict(set)

    def add(self, model: type[Model], pks: Iterable) -> None:
        self.touched[model].update(pks)


@contextmanager
def deferred_indexing() -> Iterator[DeferredIndex]:
    """Within the block, saves are only noted; on leaving it normally, they are indexed."""
    collected = DeferredIndex()

    def note(sender, instance, raw=False, **kwargs):
        if not raw:
            collected.add(sender, [instance.pk])

    search_models = [
        model for model in index.get_indexed_models() if getattr(model, "search_auto_update", True)
    ]
    for model in search_models:
        post_save.disconnect(post_save_signal_handler, sender=model)
    post_save.connect(note, dispatch_uid=_COLLECTOR_UID, weak=False)
    try:
        with disable_reference_index_auto_update():
            yield collected
    finally:
        post_save.disconnect(dispatch_uid=_COLLECTOR_UID)
        for model in search_models:
            post_save.connect(post_save_signal_handler, sender=model)
    _index(collected.touched, set(search_models))


def _index(touched: dict[type, set], search_models: set[type]) -> None:
    backends = list(get_search_backends(with_auto_update=True))
    for model, pks in touched.items():
        if ReferenceIndex.is_indexed(model):
            update_references(model, pks)
        if model in search_models:
            objects = list(model.get_indexed_objects().filter(pk__in=pks))
            for backend in backends:
                backend.add_bulk(model, objects)


def update_references(model: type[Model], pks: Iterable) -> None:
    """`ReferenceIndex.create_or_update_for_object()` for many objects of one model at once.

    The per-object call reads the object's stored references, inserts the new and deletes the
    stale ones: three queries an object, plus one per child relation. Here the objects come with
    their child relations prefetched, references are extracted by Wagtail's own
    `_extract_references_from_object()`, and each step is one query for all of them.
    """
    relations = [relation.get_accessor_name() for relation in get_all_child_relations(model)]
    objects = list(model._default_manager.filter(pk__in=pks).prefetch_related(*relations))
    if not objects:
        return
    content_types = [
        ContentType.objects.get_for_model(cls, for_concrete_model=False)
        for cls in [model, *model._meta.get_parent_list()]
    ]
    content_type, base_content_type = content_types[0], content_types[-1]
    known = {ct.pk for ct in content_types}
    stored: dict[str, dict[tuple, tuple[int, int]]] = defaultdict(dict)
    for pk, object_id, stored_type, *record in ReferenceIndex.objects.filter(
        base_content_type=base_content_type, object_id__in=[str(obj.pk) for obj in objects]
    ).values_list(
        "pk",
        "object_id",
        "content_type",
        "to_content_type",
        "to_object_id",
        "model_path",
        "content_path",
    ):
        stored[object_id][tuple(record)] = (stored_type, pk)
    new, stale = [], []
    for obj in objects:
        found = set(ReferenceIndex._extract_references_from_object(obj))
        existing = stored.get(str(obj.pk), {})
        new.extend(
            ReferenceIndex(
                content_type=content_type,
                base_content_type=base_content_type,
                object_id=obj.pk,
                to_content_type_id=to_content_type_id,
                to_object_id=to_object_id,
                model_path=model_path,
                content_path=content_path,
                content_path_hash=ReferenceIndex._get_content_path_hash(content_path),
            )
            for to_content_type_id, to_object_id, model_path, content_path in found - set(existing)
        )
        # A record of a more specific model than this one is not this object's to delete.
        stale.extend(
            pk
            for record, (stored_type, pk) in existing.items()
            if record not in found and stored_type in known
        )
    ReferenceIndex.objects.bulk_create(new, batch_size=500, ignore_conflicts=True)
    if stale:
        ReferenceIndex.objects.filter(pk__in=stale).delete()
