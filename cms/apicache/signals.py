"""Every change the public API can show bumps the content version.

Publishing (including a wagtail-localize translation publish and scheduled publishing),
unpublishing, moving and deleting pages, privacy changes, site and locale changes, and any write
to a paper or its authors, affiliations and links (the sync worker's batched writes announce
themselves with cms.papers.signals.papers_changed).
"""

from django.db.models.signals import post_delete, post_save
from wagtail.models import Locale, Page, PageViewRestriction, Site
from wagtail.signals import page_published, page_unpublished, post_page_move

from .version import bump_content_version


def _bump(sender, **kwargs) -> None:
    if kwargs.get("raw"):
        return  # loaddata: the database is being restored, not edited
    bump_content_version()


def connect() -> None:
    from cms.papers.models import Paper, PaperAffiliation, PaperAuthor, PaperLink
    from cms.papers.signals import papers_changed

    for signal in (page_published, page_unpublished, post_page_move):
        signal.connect(_bump, dispatch_uid=f"apicache-{id(signal)}")
    post_delete.connect(_bump, sender=Page, dispatch_uid="apicache-page-delete")
    papers_changed.connect(_bump, dispatch_uid="apicache-papers-changed")
    for model in (Paper, PaperAuthor, PaperAffiliation, PaperLink, Site, Locale):
        post_save.connect(_bump, sender=model, dispatch_uid=f"apicache-save-{model.__name__}")
        post_delete.connect(_bump, sender=model, dispatch_uid=f"apicache-del-{model.__name__}")
    for signal in (post_save, post_delete):
        signal.connect(
            _bump, sender=PageViewRestriction, dispatch_uid=f"apicache-privacy-{id(signal)}"
        )
