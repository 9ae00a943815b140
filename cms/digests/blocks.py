"""StreamField blocks for digest bodies and topic commentary.

Every block is one wagtail-localize understands: text blocks become translation segments,
the image chooser and the code itself stay synchronized.
"""

from django.utils import translation
from django.utils.translation import gettext_lazy as _
from wagtail import blocks
from wagtail.blocks.list_block import ListBlockValidationError
from wagtail.blocks.struct_block import StructBlockValidationError
from wagtail.images.blocks import ImageChooserBlock
from wagtail.rich_text import RichText

from cms.api.fields import PAGE_LANGUAGE

from .rich_text import LINK_ID, PAGE_LINK, clean_rich_text, page_link_ids

PARAGRAPH_FEATURES = ["bold", "italic", "link", "ol", "ul", "code", "superscript", "subscript"]


class SanitizedRichTextBlock(blocks.RichTextBlock):
    """Rich text whose stored HTML is cleaned (cms.digests.rich_text) for the API and the editor.

    The stored value is left as it is: cleaning on the way out protects every reader of the
    API whatever wrote the row, and an editor's next save stores the cleaned HTML.
    """

    def get_api_representation(self, value, context=None):
        if value is None:
            return super().get_api_representation(value, context)
        html = clean_rich_text(value.source)
        context = context or {}
        request = context.get("request")
        if request is None:
            return super().get_api_representation(RichText(html), context)
        language = context.get(PAGE_LANGUAGE) or translation.get_language()
        html = relink_pages(html, request, language)
        with translation.override(language):  # `rich_text_format=html` localizes to it
            return super().get_api_representation(RichText(html), context)

    def value_for_form(self, value):
        return clean_rich_text(super().value_for_form(value))


def relink_pages(html: str, request, language: str) -> str:
    """`html` (cleaned, in `language`) with each page link pointing where
    visibility.link_targets says: the linked page's translation in `language`, or the page, or
    nowhere (the link keeps its text) when the API does not show it to `request`."""
    from cms.api.visibility import link_targets  # it reads pages; models import this module

    ids = page_link_ids(html)
    if not ids:
        return html
    targets = link_targets(request, ids, language)

    def relink(match) -> str:
        (linked,) = page_link_ids(match.group(0))
        target = targets.get(linked)
        if target is None:
            return "<a>"
        return LINK_ID.sub(f'id="{target}"', match.group(0))

    return PAGE_LINK.sub(relink, html)


class HeadingBlock(blocks.StructBlock):
    text = blocks.CharBlock(label=_("Heading"), max_length=200)
    level = blocks.ChoiceBlock(
        label=_("Level"), choices=[("h2", "H2"), ("h3", "H3"), ("h4", "H4")], default="h2"
    )

    class Meta:
        icon = "title"
        label = _("Heading")


class FigureBlock(blocks.StructBlock):
    image = ImageChooserBlock(label=_("Image"))
    caption = blocks.CharBlock(label=_("Caption"), required=False, max_length=500)
    alt_text = blocks.CharBlock(
        label=_("Alt text"), required=False, help_text=_("Describes the figure for screen readers.")
    )

    class Meta:
        icon = "image"
        label = _("Figure")


class DataTableBlock(blocks.StructBlock):
    """A plain table of text cells; nested lists so every cell is its own translation segment."""

    caption = blocks.CharBlock(label=_("Caption"), required=False)
    header = blocks.ListBlock(blocks.CharBlock(label=_("Column heading")), label=_("Header row"))
    rows = blocks.ListBlock(
        blocks.ListBlock(blocks.CharBlock(label=_("Cell"), required=False), label=_("Row")),
        label=_("Rows"),
    )

    class Meta:
        icon = "table"
        label = _("Table")

    def clean(self, value):
        """A row with more cells than the header row has headings is refused on that row: the
        reader would show its last cells under no heading. Shorter rows are fine (the cells
        are optional)."""
        value = super().clean(value)
        columns = len(value["header"])
        too_wide = {
            number: ListBlockValidationError(
                non_block_errors=[
                    _(
                        "This row has %(cells)d cells and the header row %(columns)d "
                        "headings: add a heading or remove a cell."
                    )
                    % {"cells": len(row), "columns": columns}
                ]
            )
            for number, row in enumerate(value["rows"])
            if columns and len(row) > columns
        }
        if too_wide:
            raise StructBlockValidationError(
                block_errors={"rows": ListBlockValidationError(block_errors=too_wide)}
            )
        return value


class QuoteBlock(blocks.StructBlock):
    text = blocks.TextBlock(label=_("Quote"))
    attribution = blocks.CharBlock(label=_("Attribution"), required=False)

    class Meta:
        icon = "openquote"
        label = _("Quote")


class UntranslatedTextBlock(blocks.TextBlock):
    """Text that is the same in every language (code, LaTeX): never sent for translation."""

    def get_translatable_segments(self, value):
        return []

    def restore_translated_segments(self, value, segments):
        return value


class CodeBlock(blocks.StructBlock):
    language = blocks.ChoiceBlock(
        label=_("Language"),
        choices=[
            ("text", _("Plain text")),
            ("python", "Python"),
            ("c", "C"),
            ("cpp", "C++"),
            ("rust", "Rust"),
            ("go", "Go"),
            ("bash", _("Shell")),
            ("p4", "P4"),
        ],
        default="text",
    )
    code = UntranslatedTextBlock(label=_("Code"))

    class Meta:
        icon = "code"
        label = _("Code")


class EquationBlock(blocks.StructBlock):
    latex = UntranslatedTextBlock(
        label=_("LaTeX"), help_text=_("Rendered by the front end, e.g. KaTeX.")
    )

    class Meta:
        icon = "decimal"
        label = _("Equation")


class BaseStreamBlock(blocks.StreamBlock):
    heading = HeadingBlock()
    paragraph = SanitizedRichTextBlock(
        label=_("Paragraph"), features=PARAGRAPH_FEATURES, icon="pilcrow"
    )
    figure = FigureBlock()
    table = DataTableBlock()
    quote = QuoteBlock()
    code = CodeBlock()
    equation = EquationBlock()


class CommentaryStreamBlock(BaseStreamBlock):
    """A topic's commentary: prose around the comparison table (no figures, code or equations)."""

    figure = code = equation = None
