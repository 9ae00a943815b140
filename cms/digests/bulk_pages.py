"""Create many new pages at once, writing the rows Wagtail's one-page-at-a-time calls would write.

`add_child()`, `save_revision()` and `publish()` each cost a dozen queries (the ORM overhead,
not the database, is most of the time): a seed import spent ~300 queries per bilingual digest.
For pages that are new - nothing to merge with, no editor's work to keep - these functions apply
the same field changes in memory, in Wagtail's order, and write each table once per batch:

- `insert_children`: tree positions after the parent's last child (treebeard's `add_child`),
  the parent's `numchild`, `url_path`, the `wagtail.create` log entry;
- `save_revisions`: a revision holding `serializable_data()` taken when `save_revision()` takes
  it, and the page fields `save_revision()` sets;
- `publish`: the fields `PublishRevisionAction` sets for a revision going live now, the
  `wagtail.publish` log entry and the `page_published` / `published` signals.

Callers validate first (`page_field_errors`) and keep anything unusual (a slug already in use,
a page with comments...) on Wagtail's own path. Multi-table inheritance rules out
`bulk_create()` for the specific models, so their rows go through the queryset's `_insert()`
after the base rows' `bulk_create()`. tests/digests/test_bulk_import.py checks the rows equal
those of the per-page path.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.contrib.contenttypes.models import ContentType
from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import F, Model
from django.utils import timezone
from modelcluster.models import get_all_child_relations
from wagtail.models import Page, PageLogEntry, Revision
from wagtail.signals import page_published, published

_BASE_FIELDS = [field for field in Page._meta.concrete_fields if not field.primary_key]
PUBLISH_FIELDS = [
    "latest_revision",
    "latest_revision_created_at",
    "draft_title",
    "live",
    "has_unpublished_changes",
    "expired",
    "live_revision",
    "first_published_at",
    "last_published_at",
]


class LogEntries:
    """Page log entries as `wagtail.log_actions.log()` writes them, saved in one statement."""

    def __init__(self) -> None:
        self.entries: list[PageLogEntry] = []

    def add(
        self,
        page: Page,
        action: str,
        *,
        revision: Revision | None = None,
        data: dict | None = None,
        content_changed: bool = False,
    ) -> None:
        self.entries.append(
            PageLogEntry(
                content_type=ContentType.objects.get_for_model(page, for_concrete_model=False),
                label=page.get_admin_display_title(),
                action=action,
                timestamp=timezone.now(),
                data=data or {},
                uuid=None,
                user=None,
                revision=revision,
                content_changed=content_changed,
                deleted=False,
                page_id=page.pk,
            )
        )

    def save(self) -> None:
        for entry in self.entries:  # revisions saved after the entry was made now have their pk
            entry.revision_id = entry.revision.pk if entry.revision else None
        PageLogEntry.objects.bulk_create(self.entries, batch_size=500)
        self.entries = []


def page_field_errors(page: Page) -> ValidationError | None:
    """What `full_clean()` would reject in the page's own values, without its per-page queries.

    Foreign keys are left out (they come from rows this import just read or wrote), and so are
    the tree fields `insert_children` sets and slug uniqueness, which callers check against all
    siblings at once.
    """
    exclude = [field.name for field in page._meta.concrete_fields if field.is_relation]
    if not page.draft_title:
        page.draft_title = page.title  # as Page.full_clean() does first
    try:
        page.clean_fields(exclude=[*exclude, "path", "depth", "numchild", "url_path"])
    except ValidationError as error:
        return error
    return None


def fits_bulk_path(page: Page) -> bool:
    """A page of a model one table below Page, going live now (not scheduled)."""
    going_live_later = page.go_live_at is not None and page.go_live_at > timezone.now()
    return type(page)._meta.get_parent_list() == [Page] and not going_live_later


def without_child_objects(page: Page) -> Page:
    """Mark the new page's child relations (comments) as empty, so reading them costs no query."""
    for relation in get_all_child_relations(type(page)):
        setattr(page, relation.get_accessor_name(), [])
    return page


def _children(parent: Page):
    """The parent's children, read from the tree (not from a possibly stale `numchild`)."""
    return Page.objects.filter(path__startswith=parent.path, depth=parent.depth + 1)


def children_slugs(parent: Page) -> set[str]:
    return set(_children(parent).values_list("slug", flat=True))


def insert_children(parent: Page, pages: list[Page], logs: LogEntries) -> None:
    """Insert new pages (specific instances) as the parent's last children, as `add_child` does."""
    depth = parent.depth + 1
    last = _children(parent).order_by("-path").values_list("path", flat=True).first()
    position = Page._str2int(last[-Page.steplen :]) if last else 0
    for page in pages:
        position += 1
        path = Page._get_path(parent.path, depth, position)
        if len(path) != len(parent.path) + Page.steplen:
            raise ValueError(f"No room for another child under {parent.url_path}")
        page.path, page.depth, page.numchild = path, depth, 0
        page.set_url_path(parent)
        page._cached_parent_obj = parent
        if not page.draft_title:
            page.draft_title = page.title
        if hasattr(page, "compute_search_text"):  # SearchTextMixin.save() does this
            page.search_text = page.compute_search_text()

    rows = [
        Page(**{field.attname: getattr(page, field.attname) for field in _BASE_FIELDS})
        for page in pages
    ]
    Page.objects.bulk_create(rows, batch_size=500)
    for page, row in zip(pages, rows, strict=True):
        page.id = page.pk = row.pk
        page._state.adding = False
        page._state.db = row._state.db
    Page.objects.filter(pk=parent.pk).update(numchild=F("numchild") + len(pages))
    parent.numchild += len(pages)
    for page in pages:
        logs.add(page, "wagtail.create", content_changed=True)


def insert_specific_rows(pages: list[Page]) -> None:
    """The rows of each page's own model table, for pages whose base row exists."""
    by_model: dict[type[Model], list[Page]] = {}
    for page in pages:
        by_model.setdefault(type(page), []).append(page)
    for model, objs in by_model.items():
        fields = list(model._meta.local_concrete_fields)
        batch = max(1, connection.ops.bulk_batch_size(fields, objs))
        for start in range(0, len(objs), batch):
            model._base_manager._insert(objs[start : start + batch], fields=fields)


def save_revisions(pages: list[Page], *, changed: bool) -> list[Revision]:
    """`page.save_revision(changed=...)` for each page: one revision each, saved together."""
    page_type = ContentType.objects.get_for_model(Page)
    revisions = []
    for page in pages:
        revisions.append(
            Revision(
                content_type=ContentType.objects.get_for_model(page, for_concrete_model=False),
                base_content_type=page_type,
                object_id=str(page.pk),
                created_at=timezone.now(),
                user=None,
                approved_go_live_at=None,
                content=page.serializable_data(),
                object_str=str(page),
            )
        )
    Revision.objects.bulk_create(revisions, batch_size=500)
    for page, revision in zip(pages, revisions, strict=True):
        page.latest_revision_created_at = revision.created_at
        page.draft_title = page.title
        page.latest_revision = revision
        if changed:
            page.has_unpublished_changes = True
    return revisions


def publish(pages: list[Page], revisions: list[Revision], logs: LogEntries) -> None:
    """`revision.publish()` of each page's latest revision, going live now (see fits_bulk_path)."""
    for page, revision in zip(pages, revisions, strict=True):
        now = timezone.now()
        page.live = True
        page.has_unpublished_changes = revision is not page.latest_revision
        page.expired = False
        page.last_published_at = now
        page.live_revision = revision
        if page.first_published_at is None:
            page.first_published_at = now
        logs.add(page, "wagtail.publish", revision=revision, content_changed=True)


def announce_published(pages: Iterable[Page]) -> None:
    """The signals `PublishPageRevisionAction` sends, once the rows are saved."""
    for page in pages:
        page_published.send(sender=type(page), instance=page, revision=page.live_revision)
        published.send(sender=type(page), instance=page, revision=page.live_revision)
