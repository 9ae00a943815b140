"""Which stored API representations a change makes stale (see cms.apicache.representations).

A page's list item shows the page itself, its parent topic (title, slug), its children (a topic
lists its digests), its paper, its translation status (which reads the source page of its
translation) and its URL (every ancestor's slug). So a page save makes stale the page, its
parent, its descendants and its translations; a move, the moved subtree and both parents; a
deletion, the parent and the translations; a paper change, the digests of that paper; a privacy
change, the page and its parent (whose list of digests it leaves). Sites and locales reach every
URL, so their changes make everything stale. wagtail-localize's rows are handled with them in
cms.translation.signals.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q
from django.db.models.signals import post_delete, post_save
from wagtail.models import COMMENTS_RELATION_NAME, Locale, Page, PageViewRestriction, Site
from wagtail.signals import post_page_move

from cms.digests.selectors import parent_path

from .representations import invalidate_all, invalidate_pages

# What Page.save_revision(), locking and tree bookkeeping write to the live page's row:
# nothing the API shows.
DRAFT_BOOKKEEPING = frozenset(
    {
        COMMENTS_RELATION_NAME,
        "numchild",
        "draft_title",
        "has_unpublished_changes",
        "latest_revision",
        "latest_revision_created_at",
        "locked",
        "locked_at",
        "locked_by",
    }
)


def around(page: Page, *, descendants: bool = True) -> Q:
    """The pages whose items show something of `page`: itself, its parent, its translations
    and (unless it is gone) its descendants."""
    condition = Q(path=parent_path(page)) | Q(translation_key=page.translation_key)
    if descendants:
        return condition | Q(path__startswith=page.path)
    return condition | Q(pk=page.pk)


def invalidate_where(condition: Q) -> None:
    invalidate_pages(Page.objects.filter(condition).values_list("pk", flat=True))


def digests_of_papers(paper_ids: Iterable[int]) -> None:
    from cms.digests.models import DigestPage

    invalidate_pages(
        DigestPage.objects.filter(paper_id__in=set(paper_ids)).values_list("pk", flat=True)
    )


def _page_saved(sender, instance, raw=False, update_fields=None, **kwargs) -> None:
    if raw or not isinstance(instance, Page):
        return
    if update_fields is not None and set(update_fields) <= DRAFT_BOOKKEEPING:
        return
    invalidate_where(around(instance))


def _page_deleted(sender, instance, **kwargs) -> None:
    if isinstance(instance, Page):
        invalidate_where(around(instance, descendants=False))


def _page_moved(sender, instance, parent_page_before, parent_page_after, **kwargs) -> None:
    moved = Page.objects.get(pk=instance.pk)  # the signal's instance may hold the old path
    invalidate_where(around(moved) | Q(pk__in=[parent_page_before.pk, parent_page_after.pk]))


def _restriction_changed(sender, instance, raw=False, **kwargs) -> None:
    if not raw:
        invalidate_where(around(instance.page, descendants=False))


def _paper_changed(sender, instance, raw=False, **kwargs) -> None:
    if not raw:
        digests_of_papers([getattr(instance, "paper_id", instance.pk)])


def _papers_changed(sender, paper_ids, **kwargs) -> None:
    digests_of_papers(paper_ids)


def _everything(sender, raw=False, **kwargs) -> None:
    if not raw:
        invalidate_all()


def connect() -> None:
    from cms.papers.models import Paper, PaperAffiliation, PaperAuthor, PaperLink
    from cms.papers.signals import papers_changed

    # Every Page subclass is its own sender, so the receivers check the instance instead.
    post_save.connect(_page_saved, dispatch_uid="stored-representations-page-save")
    post_delete.connect(_page_deleted, dispatch_uid="stored-representations-page-delete")
    post_page_move.connect(_page_moved, dispatch_uid="stored-representations-page-move")
    papers_changed.connect(_papers_changed, dispatch_uid="stored-representations-papers")
    for signal in (post_save, post_delete):
        name = "save" if signal is post_save else "delete"
        signal.connect(
            _restriction_changed,
            sender=PageViewRestriction,
            dispatch_uid=f"stored-representations-privacy-{name}",
        )
        for model in (Paper, PaperAuthor, PaperAffiliation, PaperLink):
            signal.connect(
                _paper_changed,
                sender=model,
                dispatch_uid=f"stored-representations-{model.__name__}-{name}",
            )
        for model in (Site, Locale):
            signal.connect(
                _everything,
                sender=model,
                dispatch_uid=f"stored-representations-{model.__name__}-{name}",
            )
