"""The glossary translators keep, and the translation memory built from published pages."""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from wagtail.admin.panels import FieldPanel, FieldRowPanel
from wagtail.search import index

from .rules import Entry, Glossary, rule_errors


class GlossaryTerm(index.Indexed, models.Model):
    """One English term and the Traditional Chinese every translation must use for it."""

    english = models.CharField(_("English term"), max_length=200, unique=True)
    chinese = models.CharField(_("Traditional Chinese term"), max_length=200)
    note = models.TextField(_("note"), blank=True)
    case_sensitive = models.BooleanField(
        _("case-sensitive"),
        default=False,
        help_text=_("Match the English term only with exactly this capitalisation."),
    )
    forbidden_variants = models.TextField(
        _("forbidden variants"),
        blank=True,
        help_text=_("One per line: forms a translation must not use, e.g. the Mainland form."),
    )

    panels = [
        FieldRowPanel([FieldPanel("english"), FieldPanel("chinese")]),
        FieldPanel("note"),
        FieldPanel("case_sensitive"),
        FieldPanel("forbidden_variants"),
    ]
    search_fields = [
        index.SearchField("english"),
        index.SearchField("chinese"),
        index.AutocompleteField("english"),
    ]

    class Meta:
        ordering = ["english"]
        verbose_name = _("glossary term")
        verbose_name_plural = _("glossary terms")

    def __str__(self) -> str:
        return f"{self.english} → {self.chinese}"

    @property
    def forbidden(self) -> list[str]:
        return [line.strip() for line in self.forbidden_variants.splitlines() if line.strip()]

    def clean(self):
        """The glossary's rules (cms.terminology.rules), against every other term."""
        others = GlossaryTerm.objects.exclude(pk=self.pk)  # a new term's pk is None: all of them
        errors = rule_errors(Entry.of(self), Glossary(map(Entry.of, others)))
        if errors:
            raise ValidationError(errors)


class MemoryEntry(models.Model):
    """A published translation of one English segment, on one page, in one locale.

    A copy of wagtail-localize's StringTranslation rows taken when the page is published, so
    that the memory holds only published text and answers without joining the editor's tables.
    """

    locale = models.ForeignKey("wagtailcore.Locale", on_delete=models.CASCADE, related_name="+")
    page = models.ForeignKey("wagtailcore.Page", on_delete=models.CASCADE, related_name="+")
    context = models.CharField(max_length=255)
    source_hash = models.CharField(max_length=64, db_index=True)
    source_text = models.TextField()
    target_text = models.TextField()
    published_at = models.DateTimeField(auto_now=True)

    class Meta:
        indexes = [models.Index(fields=["locale", "source_hash"])]
        constraints = [
            models.UniqueConstraint(
                fields=["page", "locale", "context"], name="terminology_memory_one_per_segment"
            )
        ]
        verbose_name = _("translation memory entry")
        verbose_name_plural = _("translation memory entries")

    def __str__(self) -> str:
        return self.source_text[:60]
