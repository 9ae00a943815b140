"""A zh-hant translator's admin screens carry no English UI text.

The screens a translator visits are rendered as that translator (Wagtail's, wagtail-localize's
and the project's own); what they show, including the labels read aloud and the sidebar's
menu, must come from the zh_Hant catalogs: the project's (locales/zh_Hant) or the vendor ones
for Wagtail (locales/wagtail) and wagtail-localize (locales/vendor).
"""

import json
import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse
from wagtail.models import Page, Site
from wagtail.users.models import UserProfile
from wagtail.utils.version import get_main_version

pytestmark = pytest.mark.django_db

# Attributes a reader sees or hears.
SHOWN_ATTRIBUTES = {"aria-label", "title", "placeholder", "alt", "data-w-tooltip-content-value"}
NO_MATCH = "nothing-matches-this"  # a search query, shown back as typed
HIDDEN_ELEMENTS = {"script", "style", "template", "noscript"}
# Names that stay in Latin letters in Chinese text: products, formats, and each language's
# own name in the language menus (settings.LANGUAGES names every language in itself).
ALLOWED = {
    *("Wagtail", "DOI", "API", "PO", "DeepL", "URL", "HTML", "ID", "CSV", "TBX", "JSON"),
    *("OpenAlex", "Crossref", "DBLP", "Semantic", "Scholar", "ORCID", "Atom", "RSS", "UTC"),
    "English",
}
CHINESE = "[\u3400-\u9fff\uf900-\ufaff]"
HALF_WIDTH_BY_CHINESE = re.compile(f"{CHINESE}[,:;()?!]|[,:;()?!]{CHINESE}")
ENGLISH_WORD = re.compile(r"[A-Za-z][A-Za-z'\u2019]+")
# Wagtail's own defects, not missing messages: its page search passes the results header no
# model name, printed as "None" before a full-width comma, and its headers join a page title
# to the view's title with an untranslatable ": " ("<Exploring>: <title>").
WAGTAIL_DEFECTS = re.compile("(?<=個)None(?=\uff0c)|^\u700f\u89bd: ")


class ShownText(HTMLParser):
    """The text a reader of the page sees or hears, one string per text node or attribute;
    elements marked `hidden` (until a script shows them) and scripts are left out, but the
    sidebar's menu, drawn from the JSON of a script, is read."""

    def __init__(self):
        super().__init__()
        self.hidden_tag: str | None = None
        self.nesting = 0
        self.texts: list[str] = []
        self.sidebar = False
        self.sidebar_json = ""

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if self.hidden_tag == tag:
            self.nesting += 1
        elif self.hidden_tag is None and (tag in HIDDEN_ELEMENTS or "hidden" in attrs):
            self.hidden_tag, self.nesting = tag, 1
            self.sidebar = attrs.get("id") == "wagtail-sidebar-props"
        if self.hidden_tag is None:
            self.texts += [attrs[name] for name in SHOWN_ATTRIBUTES & attrs.keys() if attrs[name]]

    def handle_startendtag(self, tag, attrs):
        if self.hidden_tag is None and "hidden" not in dict(attrs):
            attrs = dict(attrs)
            self.texts += [attrs[name] for name in SHOWN_ATTRIBUTES & attrs.keys() if attrs[name]]

    def handle_endtag(self, tag):
        if tag == self.hidden_tag:
            self.nesting -= 1
            if not self.nesting:
                self.hidden_tag, self.sidebar = None, False

    def handle_data(self, data):
        if self.sidebar:
            self.sidebar_json += data
        elif self.hidden_tag is None and data.strip():
            self.texts.append(data.strip())


def sidebar_labels(props: str) -> list[str]:
    found = []

    def walk(node):
        if isinstance(node, dict):
            for key, value in node.items():
                if key in {"label", "tooltip"} and isinstance(value, str):
                    found.append(value)
                else:
                    walk(value)
        elif isinstance(node, list):
            for value in node:
                walk(value)

    if props:
        walk(json.loads(props))
    return found


def shown_texts(html: str) -> list[str]:
    parser = ShownText()
    parser.feed(html)
    return parser.texts + sidebar_labels(parser.sidebar_json)


def without(text: str, names: list[str]) -> str:
    """`text` without the content it names."""
    text = WAGTAIL_DEFECTS.sub("", text)
    for name in names:
        text = text.replace(name, " ")
    return text


def english_in(texts: list[str], names: list[str]) -> list[str]:
    """The texts holding an English word that is neither content nor a product name."""
    return sorted(
        {
            text
            for text in texts
            if any(w not in ALLOWED for w in ENGLISH_WORD.findall(without(text, names)))
        }
    )


@pytest.fixture
def chinese_translator(translator):
    profile = UserProfile.get_for_user(translator)
    profile.preferred_language = "zh-hant"
    profile.save()
    return translator


def content_names() -> list[str]:
    """What the database names (page titles in either language, site names), the login and the
    query shown: content, not UI text; longest first, so a title goes before a part of it."""
    names = {
        *Page.objects.values_list("title", flat=True),
        *Site.objects.values_list("site_name", flat=True),
        "translator",
        NO_MATCH,
    }
    return sorted(filter(None, names), key=len, reverse=True)


def screens(digest_zh) -> list[str]:
    topic = digest_zh.get_parent()
    return [
        reverse("wagtailadmin_home"),
        reverse("wagtailadmin_explore", args=[topic.get_parent().pk]),
        reverse("wagtailadmin_explore", args=[topic.pk]),
        reverse("wagtailadmin_pages:edit", args=[digest_zh.pk]),  # the translation editor
        reverse("wagtailadmin_pages:edit", args=[topic.pk]),
        reverse("translation_status_report"),
        reverse("translation_queue"),
        reverse("terminology_report"),
        reverse("wagtailadmin_pages:search") + "?q=fabric",
        reverse("wagtailadmin_pages:search") + f"?q={NO_MATCH}",
    ]


def test_a_zh_hant_translator_meets_no_english_ui_text(client, chinese_translator, digest_zh):
    client.force_login(chinese_translator)
    names = content_names()
    english = {}
    for url in screens(digest_zh):
        response = client.get(url)
        assert response.status_code == 200, url
        found = english_in(shown_texts(response.content.decode()), names)
        if found:
            english[url] = found
    assert english == {}


def test_half_width_punctuation_between_chinese_on_those_screens(
    client, chinese_translator, digest_zh
):
    client.force_login(chinese_translator)
    names = content_names()
    found = {}
    for url in screens(digest_zh):
        texts = shown_texts(client.get(url).content.decode())
        bad = [t for t in texts if HALF_WIDTH_BY_CHINESE.search(without(t, names))]
        if bad:
            found[url] = sorted(set(bad))
    assert found == {}


def menu_labels(response) -> list[str]:
    parser = ShownText()
    parser.feed(response.content.decode())
    return sidebar_labels(parser.sidebar_json)


def test_menus_built_for_an_english_editor_still_speak_chinese_to_a_translator(
    client, editor, chinese_translator
):
    """Wagtail keeps its menu items for the process's life and two upstream hooks translate
    their label when the item is built: the first admin request's language stuck for everyone."""
    version = get_main_version(include_patch=False)
    client.force_login(editor)
    english = menu_labels(client.get(reverse("wagtailadmin_home")))
    assert {"Translations", f"What's new in Wagtail {version}"} <= set(english)

    client.force_login(chinese_translator)
    chinese = menu_labels(client.get(reverse("wagtailadmin_home")))

    assert {"翻譯", f"Wagtail {version} 新功能"} <= set(chinese)
    assert not {"Translations", f"What's new in Wagtail {version}"} & set(chinese)
