"""Tool names stored with filled texts: one value whoever stored it, translated when shown.

wagtail-localize keeps a free-text `tool_name` on each StringTranslation ("translation memory",
"previous translation ..."). Ours are messages, and `str()` of a message is in the language of
whoever ran the tool: an administrator working in Chinese would store Chinese names that every
reader then sees. We store them in the site's default language (their msgid, for our English
msgids), and the screens that show them translate them for their reader.

Names stored as plain text are messages too (marked here or where they are stored), so that
they are shown translated: the seed import's and wagtail-localize's for an uploaded PO file.
"""

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_noop

SEED_IMPORT = gettext_noop("seed import")
# wagtail-localize stores this one (its upload_pofile view) without marking it for translation.
PO_FILE = gettext_noop("PO File")


def tool_name_to_store(name) -> str:
    """`name` (a message, lazy or not, or a plain name like "DeepL") as it is stored."""
    with translation.override(settings.LANGUAGE_CODE):
        return str(name)


def tool_name_for_display(name: str) -> str:
    """A stored tool name in the reader's language; names that are no message pass unchanged."""
    return translation.gettext(name) if name else name
