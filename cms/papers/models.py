"""Paper metadata, shared by both languages: one row per paper, never copied per locale."""

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy as _
from modelcluster.fields import ParentalKey
from modelcluster.models import ClusterableModel
from wagtail.admin.panels import FieldPanel, FieldRowPanel, InlinePanel, MultiFieldPanel
from wagtail.api import APIField
from wagtail.models import Orderable
from wagtail.search import index

from .forms import PaperForm
from .one_line import has_breaking_characters, validate_one_line
from .serializers import PaperPartField


class Venue(models.TextChoices):
    """The venues the site covers; the label is the venue's full name."""

    SIGCOMM = "SIGCOMM", _("ACM SIGCOMM Conference")
    NSDI = "NSDI", _("USENIX Symposium on Networked Systems Design and Implementation")
    ISCA = "ISCA", _("ACM/IEEE International Symposium on Computer Architecture")
    EUROSYS = "EuroSys", _("European Conference on Computer Systems")


class Track(models.TextChoices):
    """A paper's track when it is not the main research track."""

    SHORT_PAPER = "short paper", _("Short paper")
    EXPERIENCE = "Experience track", _("Experience track")


EARLIEST_YEAR = 1950


def latest_year() -> int:
    """Next year: a paper accepted now may be published (and dated) next year."""
    return timezone.now().year + 1


def validate_year(value: int) -> None:
    """A paper's year as a plausible publication year: the field alone took 0 to 32767, and a
    typo (202, 20266) went to the API and the reader's citations as typed."""
    if not EARLIEST_YEAR <= value <= latest_year():
        raise ValidationError(
            _("Enter the year the paper was published, from %(earliest)s to %(latest)s."),
            code="year_out_of_range",
            params={"earliest": EARLIEST_YEAR, "latest": latest_year()},
        )


class Paper(index.Indexed, ClusterableModel):
    """A published paper; digests in both languages point at the same row."""

    title = models.CharField(
        _("title"),
        max_length=500,
        validators=[validate_one_line],
        help_text=_("The title as published."),
    )
    venue = models.CharField(_("venue"), max_length=16, choices=Venue.choices)
    year = models.PositiveSmallIntegerField(_("year"), validators=[validate_year])
    track = models.CharField(
        _("track"),
        max_length=32,
        choices=Track.choices,
        blank=True,
        help_text=_("Leave empty for the main research track."),
    )
    doi = models.CharField(_("DOI"), max_length=200, blank=True)
    dblp_key = models.CharField(_("DBLP key"), max_length=200, blank=True)
    openalex_id = models.CharField(_("OpenAlex id"), max_length=64, blank=True)
    semantic_scholar_id = models.CharField(_("Semantic Scholar id"), max_length=64, blank=True)
    arxiv_id = models.CharField(_("arXiv id"), max_length=64, blank=True)
    preprint_doi = models.CharField(
        _("preprint DOI"),
        max_length=200,
        blank=True,
        help_text=_("The DOI of the paper's preprint (arXiv, bioRxiv, ...), when it has one."),
    )
    abstract = models.TextField(_("abstract"), blank=True)
    locked_fields = models.JSONField(
        _("locked fields"),
        default=list,
        blank=True,
        help_text=_("Fields pinned by hand: the sync worker never writes them."),
    )
    provenance = models.JSONField(
        _("provenance"),
        default=dict,
        blank=True,
        editable=False,
        help_text=_("Per field: the source it came from and when it was fetched."),
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    base_form_class = PaperForm

    panels = [
        FieldPanel("title"),
        # The venue's select holds full conference names: on a row of three it squeezed the
        # year to a box too narrow to show four digits.
        FieldPanel("venue"),
        FieldRowPanel([FieldPanel("year"), FieldPanel("track")]),
        InlinePanel("authors", heading=_("Authors"), label=_("Author")),
        InlinePanel("affiliations", heading=_("Affiliations"), label=_("Affiliation")),
        MultiFieldPanel(
            [
                FieldPanel("doi"),
                FieldPanel("dblp_key"),
                FieldPanel("openalex_id"),
                FieldPanel("semantic_scholar_id"),
                FieldPanel("arxiv_id"),
                FieldPanel("preprint_doi"),
            ],
            heading=_("Identifiers"),
        ),
        FieldPanel("abstract"),
        InlinePanel("links", heading=_("Links"), label=_("Link")),
        FieldPanel("locked_fields"),
    ]

    search_fields = [
        index.SearchField("title"),
        index.AutocompleteField("title"),
        index.FilterField("venue"),
        index.FilterField("year"),
        index.SearchField("doi"),
    ]

    api_fields = [
        APIField("title"),
        APIField("venue", serializer=PaperPartField("venue")),
        APIField("year"),
        APIField("track", serializer=PaperPartField("track")),
        APIField("doi", serializer=PaperPartField("doi")),
        APIField("authors", serializer=PaperPartField("authors")),
        APIField("affiliations", serializer=PaperPartField("affiliations")),
        APIField("ids", serializer=PaperPartField("ids")),
        APIField("links", serializer=PaperPartField("links")),
        APIField("abstract", serializer=PaperPartField("abstract")),
        APIField("provenance", serializer=PaperPartField("provenance")),
        APIField("retracted", serializer=PaperPartField("retracted")),
        APIField("updates", serializer=PaperPartField("updates")),
        APIField("preprint", serializer=PaperPartField("preprint")),
        APIField("version_of_record", serializer=PaperPartField("version_of_record")),
    ]

    class Meta:
        verbose_name = _("paper")
        verbose_name_plural = _("papers")
        ordering = ["-year", "title"]
        constraints = [
            models.UniqueConstraint(
                fields=["doi"], condition=~models.Q(doi=""), name="papers_paper_unique_doi"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.title} ({self.venue} {self.year})"

    @property
    def venue_name(self) -> str:
        """The venue's full name in the active language (the admin's and the API's)."""
        return Venue(self.venue).label if self.venue in Venue.values else self.venue

    @property
    def venue_proper_name(self) -> str:
        """The venue's own full name, untranslated: the proceedings' title a citation prints
        (a translated one names no real publication)."""
        with translation.override(None):
            return str(self.venue_name)

    @property
    def ids(self) -> dict[str, str]:
        """Every identifier known for the paper, empty ones left out."""
        names = (
            "doi",
            "dblp_key",
            "openalex_id",
            "semantic_scholar_id",
            "arxiv_id",
            "preprint_doi",
        )
        return {name: getattr(self, name) for name in names if getattr(self, name)}


ORCID = re.compile(r"\d{4}-\d{4}-\d{4}-\d{3}[\dX]")
AFFILIATIONS_HELP = _('The author\'s institutions as JSON text, e.g. ["MIT", "Google"].')


class PaperAuthor(Orderable):
    """One author in printed order, with their affiliations at the time of the paper."""

    paper = ParentalKey(Paper, on_delete=models.CASCADE, related_name="authors")
    name = models.CharField(_("name"), max_length=200, validators=[validate_one_line])
    given = models.CharField(
        _("given name"), max_length=200, blank=True, validators=[validate_one_line]
    )
    family = models.CharField(
        _("family name"), max_length=200, blank=True, validators=[validate_one_line]
    )
    orcid = models.CharField(_("ORCID"), max_length=19, blank=True)
    affiliations = models.JSONField(_("affiliations"), default=list, blank=True)

    panels = [
        FieldRowPanel([FieldPanel("name"), FieldPanel("orcid")]),
        FieldRowPanel([FieldPanel("given"), FieldPanel("family")]),
        FieldPanel("affiliations", help_text=AFFILIATIONS_HELP),
    ]

    class Meta(Orderable.Meta):
        verbose_name = _("author")
        verbose_name_plural = _("authors")

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """What the API and the reader print for an author: institutions as a list of names
        (a JSON string was shown letter by letter), and an ORCID orcid.org can resolve."""
        errors = {}
        affiliations = self.affiliations
        if not isinstance(affiliations, list) or not all(
            isinstance(name, str) for name in affiliations
        ):
            errors["affiliations"] = _(
                'List the institutions as JSON text in square brackets, e.g. ["MIT", "Google"].'
            )
        elif any(has_breaking_characters(name) for name in affiliations):
            errors["affiliations"] = _(
                "Write each institution on one line: line breaks, tabs and control characters "
                "are not allowed."
            )
        if self.orcid and not ORCID.fullmatch(self.orcid):
            errors["orcid"] = _(
                "An ORCID iD is four groups of four digits, e.g. 0000-0002-1825-0097."
            )
        if errors:
            raise ValidationError(errors)


class PaperAffiliation(Orderable):
    """An institution as the site prints it, in printed order ("et al." marks a cut list)."""

    paper = ParentalKey(Paper, on_delete=models.CASCADE, related_name="affiliations")
    name = models.CharField(_("institution"), max_length=300, validators=[validate_one_line])

    panels = [FieldPanel("name")]

    class Meta(Orderable.Meta):
        verbose_name = _("affiliation")
        verbose_name_plural = _("affiliations")

    def __str__(self) -> str:
        return self.name


class PaperLink(Orderable):
    """A link to the paper elsewhere: publisher page, PDF, slides, code."""

    paper = ParentalKey(Paper, on_delete=models.CASCADE, related_name="links")
    label = models.CharField(_("label"), max_length=100, validators=[validate_one_line])
    url = models.URLField(_("URL"), max_length=1000)

    panels = [FieldRowPanel([FieldPanel("label"), FieldPanel("url")])]

    class Meta(Orderable.Meta):
        verbose_name = _("link")
        verbose_name_plural = _("links")

    def __str__(self) -> str:
        return self.url


class PaperNotice(models.Model):
    """An update notice a publisher or Retraction Watch issued for a paper: a retraction, a
    correction, an expression of concern... The sync worker alone writes these (from Crossref's
    `updated-by` and OpenAlex's `is_retracted`); editors only acknowledge them."""

    class Source(models.TextChoices):
        PUBLISHER = "publisher", _("Publisher")
        RETRACTION_WATCH = "retraction-watch", _("Retraction Watch")
        OPENALEX = "openalex", _("OpenAlex")

    paper = models.ForeignKey(
        Paper, on_delete=models.CASCADE, related_name="notices", verbose_name=_("paper")
    )
    notice_doi = models.CharField(_("notice DOI"), max_length=200, blank=True)
    update_type = models.CharField(_("type"), max_length=40)
    label = models.CharField(_("label"), max_length=100)
    source = models.CharField(_("source"), max_length=40, choices=Source.choices)
    record_id = models.CharField(_("record id"), max_length=40, blank=True)
    updated_on = models.DateField(_("date"), null=True, blank=True)
    first_seen_at = models.DateTimeField(_("first seen"), default=timezone.now)
    acknowledged_at = models.DateTimeField(_("acknowledged at"), null=True, blank=True)
    acknowledged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("acknowledged by"),
    )
    notified_at = models.DateTimeField(_("editors e-mailed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("update notice")
        verbose_name_plural = _("update notices")
        ordering = ["updated_on", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["paper", "notice_doi", "update_type", "source"],
                name="papers_notice_unique_per_paper",
            ),
        ]
        indexes = [models.Index(fields=["acknowledged_at"], name="papers_notice_ack_idx")]

    def __str__(self) -> str:
        return f"{self.label}: {self.paper.title}"
