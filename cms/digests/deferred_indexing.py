"""Index each object an import touches once, at the end, instead of on every one of its saves.

Creating and publishing a page and its translation saves each page three or four times, and
every save queues a search-index and a reference-index update (run inline without a task
worker): most of an import's time. Wagtail offers `disable_reference_index_auto_update` for the
reference index; modelsearch has no such switch, so its save handler is disconnected for the
duration and the collected objects are indexed in bulk before the caller's transaction ends.
Meant for management commands (imports), not for web requests running concurrently in the
same process.
"""

from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

from django.db.models.signals import post_save
from modelsearch import index
from modelsearch.backends import get_search_backends
from modelsearch.signal_handlers import post_save_signal_handler
from wagtail.models import ReferenceIndex
from wagtail.signal_handlers import disable_reference_index_auto_update

_COLLECTOR_UID = "deferred-indexing-collector"


@contextmanager
def deferred_indexing() -> Iterator[None]:
    """Within the block, saves are only noted; on leaving it normally, they are indexed."""
    touched: dict[type, set] = defaultdict(set)

    def note(sender, instance, raw=False, **kwargs):
        if not raw:
            touched[sender].add(instance.pk)

    search_models = [
        model for model in index.get_indexed_models() if getattr(model, "search_auto_update", True)
    ]
    for model in search_models:
        post_save.disconnect(post_save_signal_handler, sender=model)
    post_save.connect(note, dispatch_uid=_COLLECTOR_UID, weak=False)
    try:
        with disable_reference_index_auto_update():
            yield
    finally:
        post_save.disconnect(dispatch_uid=_COLLECTOR_UID)
        for model in search_models:
            post_save.connect(post_save_signal_handler, sender=model)
    _index(touched, set(search_models))


def _index(touched: dict[type, set], search_models: set[type]) -> None:
    backends = list(get_search_backends(with_auto_update=True))
    for model, pks in touched.items():
        if ReferenceIndex.is_indexed(model):
            for obj in model._default_manager.filter(pk__in=pks).iterator():
                ReferenceIndex.create_or_update_for_object(obj)
        if model in search_models:
            objects = list(model.get_indexed_objects().filter(pk__in=pks))
            for backend in backends:
                backend.add_bulk(model, objects)
