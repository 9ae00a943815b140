"""Machine translators for wagtail-localize that only ever hand back Traditional Chinese.

Chosen by `WAGTAILLOCALIZE_MACHINE_TRANSLATOR` (see `cms.settings.base`). wagtail-localize's own
DeepL client sends `ZH` for every Chinese target, and DeepL answers `ZH` in Simplified Chinese;
DeepL's target code for Traditional Chinese is `ZH-HANT`. Whatever a machine returns is run
through the zh-Hant guard before wagtail-localize stores it: Simplified characters are converted
with OpenCC, and a string that still holds any is dropped, so a translator does it by hand.
"""

import logging
from collections.abc import Iterable

from django.utils.translation import gettext_lazy as _
from wagtail.models import Locale
from wagtail_localize.machine_translators.deepl import DeepLTranslator
from wagtail_localize.machine_translators.dummy import DummyTranslator
from wagtail_localize.strings import StringValue

from cms.translation.guard.zh_hant import find_simplified, is_traditional_chinese, to_traditional

logger = logging.getLogger(__name__)

# Our locale codes for Traditional Chinese, and the one DeepL expects for them.
DEEPL_TRADITIONAL_CHINESE = "ZH-HANT"


def keep_traditional(
    target_locale: Locale, translations: dict[StringValue, StringValue]
) -> dict[StringValue, StringValue | None]:
    """Convert Simplified characters in machine output; drop strings that cannot be fixed."""
    if not is_traditional_chinese(target_locale.language_code):
        return translations
    guarded: dict[StringValue, StringValue | None] = {}
    for source, translated in translations.items():
        text = translated.data
        if find_simplified(text):
            text = to_traditional(text)
        if find_simplified(text):
            logger.warning("Dropped a machine translation with Simplified characters: %r", text)
            guarded[source] = None
        else:
            guarded[source] = StringValue(text)
    return guarded


class KeepTraditionalMixin:
    """Runs a machine translator's output through keep_traditional()."""

    def translate(self, source_locale: Locale, target_locale: Locale, strings: Iterable):
        return keep_traditional(
            target_locale, super().translate(source_locale, target_locale, list(strings))
        )


class TraditionalChineseDeepLTranslator(KeepTraditionalMixin, DeepLTranslator):
    """DeepL, asking for Traditional Chinese (`ZH-HANT`) for our zh-hant locale.

    Options as for wagtail-localize's DeepLTranslator: `AUTH_KEY` (a key ending in `:fx` uses the
    free API), `TIMEOUT`, `FORMALITY`, `GLOSSARY_IDS`.
    """

    display_name = "DeepL"

    def get_parameters(self, source_locale: Locale, target_locale: Locale, strings) -> dict:
        parameters = super().get_parameters(source_locale, target_locale, strings)
        if is_traditional_chinese(target_locale.language_code):
            parameters["target_lang"] = DEEPL_TRADITIONAL_CHINESE
        return parameters


class GuardedDummyTranslator(KeepTraditionalMixin, DummyTranslator):
    """wagtail-localize's dummy translator (reverses words) behind the same guard; for tests."""

    display_name = _("Dummy translator")
