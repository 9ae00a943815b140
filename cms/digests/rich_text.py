"""One allow-list for stored rich text, applied where it leaves the database.

Rich text reaches the database from the editor (Draftail, which writes only its features) but
also from imports and hand-written SQL, so stored HTML may hold anything. It is cleaned with
nh3 (an HTML5 parser and allow-list sanitizer) in two places, both in
cms.digests.blocks.SanitizedRichTextBlock:

- the API sends only the paragraph features' tags, `href`s with safe schemes and Wagtail's
  page links, so every front end gets the same safe HTML (the reference reader inserts it as
  HTML; CSP stays a second line of defence, not the only one);
- the admin editor gets the same cleaned HTML, which Wagtail's HTML-to-Draftail converter can
  always read: it answered 500 on void tags such as `<img>` left open, misnested tags
  (`<b><i>x</b></i>`), and page links without a numeric `id`.

Text is never dropped, only markup outside the allow-list (and `<script>`/`<style>` bodies).
"""

from __future__ import annotations

import re

import nh3

# The tags Draftail writes for PARAGRAPH_FEATURES (bold, italic, link, ol, ul, code,
# superscript, subscript), plus paragraphs and line breaks.
ALLOWED_TAGS = frozenset({"p", "br", "b", "i", "a", "ol", "ul", "li", "code", "sup", "sub"})
# Wagtail's database format links to pages as <a linktype="page" id="N">.
LINK_TYPES = frozenset({"page"})
URL_SCHEMES = frozenset({"http", "https", "mailto", "tel"})


def _link_attribute(tag: str, attribute: str, value: str) -> str | None:
    """Keep a link's `linktype` only if Wagtail knows it, and its `id` only if it is a number."""
    if tag == "a" and attribute == "linktype":
        return value if value in LINK_TYPES else None
    if tag == "a" and attribute == "id":
        return value if value.isascii() and value.isdigit() else None
    return value


_CLEANER = nh3.Cleaner(
    tags=set(ALLOWED_TAGS),
    clean_content_tags={"script", "style"},
    # data-block-key: Draftail's block ids, which anchor the editor's comments.
    attributes={
        "a": {"href", "linktype", "id"},
        "p": {"data-block-key"},
        "li": {"data-block-key"},
    },
    attribute_filter=_link_attribute,
    url_schemes=set(URL_SCHEMES),
    link_rel=None,  # stored rich text is Wagtail's database format, not the page's HTML
)

# nh3 serializes every start tag as `<a name="value" ...>` with escaped values, so its output
# can be read back with these two patterns.
_LINK_TAG = re.compile(r"<a((?: [a-z]+=\"[^\"]*\")*)>")
_ATTRIBUTE = re.compile(r' ([a-z]+)="([^"]*)"')


def _whole_page_link(match: re.Match[str]) -> str:
    """`linktype` and `id` come as a pair (Wagtail's converters need both) or not at all."""
    attributes = dict(_ATTRIBUTE.findall(match.group(1)))
    if not ("linktype" in attributes and "id" in attributes):
        attributes.pop("linktype", None)
        attributes.pop("id", None)
    return "<a" + "".join(f' {name}="{value}"' for name, value in attributes.items()) + ">"


def clean_rich_text(html: str) -> str:
    """Stored rich text reduced to the allow-list, well formed."""
    return _LINK_TAG.sub(_whole_page_link, _CLEANER.clean(html or ""))


# A page link in stored rich text, in its HTML or JSON-escaped in a StreamField's stored data:
# `<a linktype="page" id="N">` (the attributes in either order).
PAGE_LINK = re.compile(r'<a\b[^>]*?linktype=\\?"page\\?"[^>]*>')
LINK_ID = re.compile(r'\bid=\\?"(\d+)\\?"')


def page_link_ids(text: str) -> set[int]:
    """The ids of the pages that rich text (or a StreamField's stored data) links to."""
    return {int(found) for tag in PAGE_LINK.findall(text) for found in LINK_ID.findall(tag)}
