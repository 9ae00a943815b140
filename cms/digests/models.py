"""The page tree: DigestIndexPage (site root) > TopicPage > DigestPage."""

from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from wagtail.admin.panels import FieldPanel, FieldRowPanel, MultiFieldPanel
from wagtail.api import APIField
from wagtail.fields import StreamField
from wagtail.models import Page
from wagtail.search import index
from wagtail_headless_preview.models import HeadlessPreviewMixin
from wagtail_localize.fields import SynchronizedField, TranslatableField

from cms.papers.serializers import PaperSerializer
from cms.translation.policy.pages import RoleCheckedPageMixin
from cms.translation.policy.panels import EditLinkByPolicyFieldPanel
from cms.translation.status.api_field import TranslationStatusField

from .blocks import BaseStreamBlock, CommentaryStreamBlock
from .forms import SlugClashExplainedPageForm, TopicPageForm
from .search import SearchTextMixin
from .serializers import TopicDigestsField, TopicRefField
from .sitemap import SitemapAlternatesMixin

# Synchronized fields are not overridable: they follow the English page (a translator changing a
# translation's paper or slug in wagtail-localize's editor would make the languages disagree).
PAGE_TRANSLATABLE_FIELDS = [
    TranslatableField("title"),
    TranslatableField("seo_title"),
    TranslatableField("search_description"),
    SynchronizedField("slug", overridable=False),
]


READING_MINUTES = (1, 600)


def validate_reading_minutes(value: int) -> None:
    """A reading time readers can use: the field alone took 0 (shown as "0 min read")."""
    shortest, longest = READING_MINUTES
    if not shortest <= value <= longest:
        raise ValidationError(
            _("Enter a reading time from %(shortest)s to %(longest)s minutes."),
            code="reading_minutes_out_of_range",
            params={"shortest": shortest, "longest": longest},
        )


class DigestIndexPage(
    RoleCheckedPageMixin,
    SitemapAlternatesMixin,
    HeadlessPreviewMixin,
    Page,
):
    """The site root, "Research digests": an intro above the list of topics."""

    intro = models.TextField(_("intro"), blank=True)

    content_panels = [*Page.content_panels, FieldPanel("intro")]
    api_fields = [
        APIField("intro"),
        APIField("translation_status", serializer=TranslationStatusField()),
    ]
    translatable_fields = [*PAGE_TRANSLATABLE_FIELDS, TranslatableField("intro")]

    parent_page_types = ["wagtailcore.Page"]
    subpage_types = ["digests.TopicPage"]
    max_count_per_parent = 1

    class Meta:
        verbose_name = _("digest index page")


class TopicPage(
    RoleCheckedPageMixin,
    SitemapAlternatesMixin,
    HeadlessPreviewMixin,
    SearchTextMixin,
    Page,
):
    """A topic overview: which chapter to finish first, and a comparison of its digests."""

    search_text_fields = ("title", "intro")

    intro = models.TextField(_("intro"), blank=True)
    finish_first = models.TextField(
        _("chapter to finish first"),
        blank=True,
        help_text=_("Which chapter a reader should finish before the others, and why."),
    )
    finish_first_url = models.URLField(
        _("link to that chapter"), blank=True, help_text=_("Optional.")
    )
    commentary = StreamField(
        CommentaryStreamBlock(),
        verbose_name=_("commentary"),
        blank=True,
        help_text=_("The editor's comparison of the papers, shown beside the comparison table."),
    )

    content_panels = [
        *Page.content_panels,
        FieldPanel("intro"),
        MultiFieldPanel(
            [FieldPanel("finish_first"), FieldPanel("finish_first_url")],
            heading=_("Chapter to finish first"),
        ),
        FieldPanel("commentary"),
    ]
    api_fields = [
        APIField("intro"),
        APIField("finish_first"),
        APIField("finish_first_url"),
        APIField("commentary"),
        APIField("digests", serializer=TopicDigestsField()),
        APIField("translation_status", serializer=TranslationStatusField()),
    ]
    translatable_fields = [
        *PAGE_TRANSLATABLE_FIELDS,
        TranslatableField("intro"),
        TranslatableField("finish_first"),
        SynchronizedField("finish_first_url", overridable=False),
        TranslatableField("commentary"),
    ]
    search_fields = [*Page.search_fields, index.SearchField("intro")]
    base_form_class = TopicPageForm

    parent_page_types = ["digests.DigestIndexPage"]
    subpage_types = ["digests.DigestPage"]

    class Meta:
        verbose_name = _("topic page")

    def public_digests(self):
        """Live, public digests under this topic, in the editors' order."""
        return DigestPage.objects.child_of(self).live().public().order_by("path")


class DigestPage(
    RoleCheckedPageMixin,
    SitemapAlternatesMixin,
    HeadlessPreviewMixin,
    SearchTextMixin,
    Page,
):
    """One paper, explained: what the digest sets out to explain, then the body."""

    search_text_fields = ("title", "short_name", "summary")

    short_name = models.CharField(
        _("short name"), max_length=100, help_text=_("The system's name, e.g. FabricPerf.")
    )
    reading_minutes = models.PositiveSmallIntegerField(
        _("reading time (minutes)"), validators=[validate_reading_minutes]
    )
    summary = models.TextField(_("summary"), help_text=_("What the digest sets out to explain."))
    body = StreamField(BaseStreamBlock(), verbose_name=_("body"), blank=True)
    paper = models.ForeignKey(
        "papers.Paper",
        verbose_name=_("paper"),
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="digests",
    )

    content_panels = [
        *Page.content_panels,
        FieldRowPanel([FieldPanel("short_name"), FieldPanel("reading_minutes")]),
        FieldPanel("summary"),
        EditLinkByPolicyFieldPanel("paper"),
        FieldPanel("body"),
    ]
    api_fields = [
        APIField("short_name"),
        APIField("reading_minutes"),
        APIField("summary"),
        APIField("body"),
        APIField("topic", serializer=TopicRefField()),
        APIField("paper", serializer=PaperSerializer()),
        APIField("translation_status", serializer=TranslationStatusField()),
    ]
    translatable_fields = [
        *PAGE_TRANSLATABLE_FIELDS,
        TranslatableField("summary"),
        TranslatableField("body"),
        SynchronizedField("short_name", overridable=False),
        SynchronizedField("reading_minutes", overridable=False),
        SynchronizedField("paper", overridable=False),
    ]
    search_fields = [
        *Page.search_fields,
        index.SearchField("short_name"),
        index.SearchField("summary"),
    ]
    base_form_class = SlugClashExplainedPageForm

    parent_page_types = ["digests.TopicPage"]
    subpage_types = []

    class Meta:
        verbose_name = _("digest page")

    @property
    def topic(self) -> "TopicPage | None":
        parent = self.get_parent()
        return parent.specific if parent is not None else None
