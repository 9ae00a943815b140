"""The "Translate with ..." plug-in: the translation memory first, then a machine with the glossary.

Configured as wagtail-localize's machine translator::

    WAGTAILLOCALIZE_MACHINE_TRANSLATOR = {
        "CLASS": "cms.terminology.translator.MemoryFirstTranslator",
        "OPTIONS": {"MACHINE": {"CLASS": "...DeepLTranslator", "OPTIONS": {...}}},  # optional
    }

Without "MACHINE" the memory alone answers (development, tests, no provider key). Segments with
an exact published translation get it, marked as coming from the memory (see
`cms.terminology.views.machine_translate`); the others go to the machine. A machine that applies
a glossary itself (DeepL with `GLOSSARY_IDS`) gets the text as is; any other gets the glossary's
English terms replaced by their Chinese terms first, so it keeps them. Every answer, the
memory's included, passes the zh-Hant guard.
"""

from collections.abc import Iterable

from django.utils.module_loading import import_string
from django.utils.translation import gettext_lazy as _
from wagtail.models import Locale
from wagtail_localize.machine_translators.base import BaseMachineTranslator
from wagtail_localize.strings import StringValue

from cms.translation.machine.translators import keep_traditional

from . import memory
from .glossary import Term, find_terms, load_terms

MEMORY = "memory"
MACHINE = "machine"
MEMORY_TOOL_NAME = _("translation memory")


def protect_terms(text: str, terms: list[Term]) -> str:
    """`text` with each glossary term replaced by its Chinese term."""
    pieces, last = [], 0
    for term, start, end in find_terms(text, terms):
        pieces.extend([text[last:start], term.chinese])
        last = end
    pieces.append(text[last:])
    return "".join(pieces)


class MemoryFirstTranslator(BaseMachineTranslator):
    def __init__(self, options):
        super().__init__(options)
        machine = options.get("MACHINE")
        self.machine: BaseMachineTranslator | None = None
        if machine:
            self.machine = import_string(machine["CLASS"])(machine.get("OPTIONS", {}))

    @property
    def display_name(self):
        return self.machine.display_name if self.machine else MEMORY_TOOL_NAME

    def can_translate(self, source_locale: Locale, target_locale: Locale) -> bool:
        if self.machine is not None and self.machine.can_translate(source_locale, target_locale):
            return True
        return (
            source_locale.language_code.split("-")[0] != target_locale.language_code.split("-")[0]
        )

    def translate_with_origins(
        self, source_locale: Locale, target_locale: Locale, strings: Iterable[StringValue]
    ) -> dict[StringValue, tuple[StringValue | None, str]]:
        """{string: (translation or None, MEMORY or MACHINE)}."""
        strings = list(strings)
        found = memory.exact_matches(target_locale, [string.data for string in strings])
        answers: dict[StringValue, StringValue] = {
            string: StringValue(found[string.data].target)
            for string in strings
            if string.data in found
        }
        origins = {string: MEMORY for string in answers}
        rest = [string for string in strings if string not in answers]
        if rest and self.machine is not None:
            if self.machine.options.get("GLOSSARY_IDS"):  # it applies the glossary itself
                sent = {string: string for string in rest}
            else:
                terms = load_terms()
                sent = {StringValue(protect_terms(s.data, terms)): s for s in rest}
            machine_answers = self.machine.translate(source_locale, target_locale, list(sent))
            for sent_string, original in sent.items():
                answer = machine_answers.get(sent_string)
                if answer is not None and answer.data is not None:
                    answers[original] = answer
                    origins[original] = MACHINE
        guarded = keep_traditional(target_locale, answers)
        return {string: (guarded[string], origins[string]) for string in answers}

    def translate(self, source_locale: Locale, target_locale: Locale, strings: Iterable):
        return {
            string: value
            for string, (value, _origin) in self.translate_with_origins(
                source_locale, target_locale, strings
            ).items()
        }
