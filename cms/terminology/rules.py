"""What makes a glossary term acceptable beside the others: one place, for every way in.

The admin's add and edit forms (through `GlossaryTerm.clean`) and the CSV/TBX import
(`exchange.plan_import`) both ask `rule_errors`, so they cannot disagree. A term is refused when

- its Traditional Chinese term has Simplified-only characters (the zh-Hant guard,
  cms.translation.guard.zh_hant.find_simplified, decides which);
- one of its forbidden variants is its preferred term, or a part of it (the terminology check
  would then report every correct use as forbidden);
- its English term is another term's in other capitalisation ("CONGESTION CONTROL" beside
  "congestion control"): both would match the same English text, whatever their case rule;
- its preferred term contains a variant another term forbids, or one of its forbidden variants
  is in another term's preferred term, so that following the glossary breaks the glossary.

"Contains" is the terminology check's own rule (checks.forbidden_in): a variant is found as a
substring of the translation, except where the variant itself contains its owner's preferred
term (壅塞控制 forbidding 擁塞控制器 does not forbid 壅塞控制).
"""

from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate

from django.utils.translation import gettext as _

from cms.translation.guard.zh_hant import find_simplified


@dataclass(frozen=True, eq=False)  # compared by identity: the same term, not an equal one
class Entry:
    english: str
    chinese: str
    forbidden: tuple[str, ...]

    @classmethod
    def of(cls, term) -> "Entry":
        """From anything with english, chinese and forbidden (a GlossaryTerm, an import row)."""
        return cls(term.english, term.chinese, tuple(term.forbidden))


def forbids(variant: str, owner_chinese: str, text: str) -> bool:
    """Whether the terminology check would report `variant` (its owner's) in `text`."""
    return variant in text and owner_chinese not in variant


class Glossary:
    """Terms indexed for `rule_errors`: by English, by forbidden variant, by Chinese text."""

    def __init__(self, entries: Iterable[Entry]):
        self.entries = list(entries)
        self.by_english: dict[str, list[Entry]] = defaultdict(list)
        self.owners: dict[str, list[Entry]] = defaultdict(list)
        for entry in self.entries:
            self.by_english[entry.english.lower()].append(entry)
            for variant in entry.forbidden:
                self.owners[variant].append(entry)
        self.longest_variant = max(map(len, self.owners), default=0)
        # Every preferred term in one string, to find those containing a variant in one search.
        self.chinese = "\0".join(entry.chinese for entry in self.entries)
        self.starts = list(accumulate((len(e.chinese) + 1 for e in self.entries), initial=0))

    def variants_in(self, text: str) -> Iterable[tuple[str, Entry]]:
        """(variant, owner) for each forbidden variant the check would find in `text`."""
        for start in range(len(text)):
            for end in range(start + 1, min(len(text), start + self.longest_variant) + 1):
                variant = text[start:end]
                for owner in self.owners.get(variant, ()):
                    if forbids(variant, owner.chinese, text):
                        yield variant, owner

    def containing(self, variant: str) -> Iterable[Entry]:
        """The entries whose preferred term contains `variant`."""
        found = self.chinese.find(variant)
        while found != -1:
            entry = self.entries[bisect_right(self.starts, found) - 1]
            yield entry
            found = self.chinese.find(variant, found + 1)


def rule_errors(term: Entry, glossary: Glossary) -> dict[str, list[str]]:
    """{field name: [messages]} of the rules `term` breaks beside the terms of `glossary`.

    `glossary` may hold `term` itself (an import checks each row against the glossary it is
    about to become); it is skipped. Exact English duplicates are left to the model's unique
    check, which names them already.
    """
    errors: dict[str, list[str]] = defaultdict(list)
    simplified = find_simplified(term.chinese)
    if simplified:
        errors["chinese"].append(
            _("“%(chinese)s” has Simplified-only characters (%(characters)s); use Traditional.")
            % {"chinese": term.chinese, "characters": "".join(simplified)}
        )
    for variant in term.forbidden:
        if variant == term.chinese:
            errors["forbidden_variants"].append(
                _("“%(variant)s” is the preferred term; it cannot also be forbidden.")
                % {"variant": variant}
            )
        elif forbids(variant, term.chinese, term.chinese):
            errors["forbidden_variants"].append(
                _(
                    "“%(variant)s” is part of the preferred term “%(chinese)s”, which would then "
                    "be reported as forbidden."
                )
                % {"variant": variant, "chinese": term.chinese}
            )
    for other in glossary.by_english.get(term.english.lower(), ()):
        if other is not term and other.english != term.english:
            errors["english"].append(
                _(
                    "“%(other)s” is already in the glossary; a term in other capitalisation is "
                    "the same term. Edit “%(other)s” instead."
                )
                % {"other": other.english}
            )
    reported = set()
    for variant, owner in glossary.variants_in(term.chinese):
        if owner is not term and (variant, owner.english) not in reported:
            reported.add((variant, owner.english))
            errors["chinese"].append(
                _("“%(chinese)s” contains “%(variant)s”, which “%(english)s” forbids.")
                % {"chinese": term.chinese, "variant": variant, "english": owner.english}
            )
    for variant in term.forbidden:
        for other in dict.fromkeys(glossary.containing(variant)):
            if other is not term and forbids(variant, term.chinese, other.chinese):
                errors["forbidden_variants"].append(
                    _(
                        "“%(variant)s” is in “%(chinese)s”, the preferred term of "
                        "“%(english)s”, so it cannot be forbidden."
                    )
                    % {"variant": variant, "chinese": other.chinese, "english": other.english}
                )
    return dict(errors)
