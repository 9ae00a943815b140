"""The stored API representations: each page's list item, kept as the bytes the API sends."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class StoredRepresentation(models.Model):
    """One page's `fields=*` list item in one language, or a tombstone (`body` null).

    A writer that changes what the item shows turns it into a tombstone and raises its
    `generation` in the same transaction (cms.apicache.representations.invalidate_pages); a
    reader fills a tombstone only if the generation it read is still the row's, so an item
    built from data read before a write can never be stored after it.
    """

    page = models.ForeignKey(
        "wagtailcore.Page",
        on_delete=models.CASCADE,
        related_name="stored_representations",
        verbose_name=_("page"),
        # No database constraint: a tombstone may be written for a page that is being deleted
        # in the same transaction (its parent's, by a delete signal); Django's collector still
        # deletes a page's rows with it, and ids are never reused. The unique constraint below
        # is the index.
        db_constraint=False,
        db_index=False,
    )
    language = models.CharField(_("language"), max_length=16)
    generation = models.PositiveBigIntegerField(_("generation"), default=0)
    # The code, catalogs and settings `body` was built with (representations.item_format()).
    format = models.CharField(_("format"), max_length=16, default="")
    body = models.TextField(_("body"), null=True)

    class Meta:
        verbose_name = _("stored API representation")
        verbose_name_plural = _("stored API representations")
        constraints = [
            models.UniqueConstraint(
                fields=["page", "language"], name="apicache_one_representation_per_language"
            )
        ]

    def __str__(self) -> str:
        return f"{self.page_id} ({self.language})"
