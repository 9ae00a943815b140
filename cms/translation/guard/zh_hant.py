"""The zh-Hant guard: find Simplified-only characters in text meant to be Traditional Chinese.

The character data is OpenCC's, from the OpenCC project's own package (`opencc`), not a table
of our own: a character is Simplified-only when OpenCC maps it to a different Traditional
character and it is not itself a Traditional character (so 网 and 络 are flagged, while 里 or 着,
which are valid in both scripts, are not).

The package's Python API only converts text, which gives a character's first Traditional
candidate and so cannot tell 里 (里 -> 裏 裡 里) from 网 (网 -> 網). The candidate lists are in
the compiled dictionaries it ships; we read them with the `opencc_dict` tool shipped beside them,
once per process. Upstream would need a Python call listing a dictionary's entries to drop that.

What to write instead is OpenCC's `s2twp` conversion of the whole text (phrase-aware, Taiwan
usage: 网络 -> 網路, 软件 -> 軟體, 内存 -> 記憶體), reported as the runs it changes: converting
character by character gave 網絡, which the glossary forbids, so two messages disagreed.
"""

import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path

import opencc
from django.utils.translation import gettext

# The wheel's layout: compiled dictionaries under clib/share/opencc, its tools under clib/bin.
OPENCC_DIR = Path(opencc.__file__).parent / "clib"


def language_subtags(tag: str) -> list[str]:
    """A BCP 47 language tag's subtags, lower-case (`zh_Hant_TW` -> ["zh", "hant", "tw"])."""
    return tag.strip().replace("_", "-").lower().split("-")


def is_traditional_chinese(tag: str) -> bool:
    """Whether a language tag (any case) names Traditional Chinese: the one answer for locales,
    machine translation and glossary files.

    Chinese written in the Hant script (zh-Hant, zh-Hant-TW, zh-Hant-CN), or Chinese of a
    region where Traditional is the norm when no script is named (zh-TW, zh-HK, zh-MO). Plain
    `zh` names no script, and most tools mean Simplified by it, so like zh-Hans, zh-CN and zh-SG
    it does not count.
    """
    primary, *rest = language_subtags(tag)
    if primary != "zh":
        return False
    scripts = [subtag for subtag in rest if len(subtag) == 4 and subtag.isalpha()]
    if scripts:
        return scripts[0] == "hant"
    return any(subtag in ("tw", "hk", "mo") for subtag in rest)


class OpenCCDataMissing(RuntimeError):
    """The installed `opencc` package lacks the dictionaries or the tool to read them."""


def _read_dictionary(name: str) -> dict[str, list[str]]:
    """One of OpenCC's compiled dictionaries as {key: candidates}, via its `opencc_dict` tool."""
    source = OPENCC_DIR / "share" / "opencc" / f"{name}.ocd2"
    tool = OPENCC_DIR / "bin" / "opencc_dict"
    if not source.is_file() or not tool.is_file():
        raise OpenCCDataMissing(
            f"OpenCC's {name} dictionary or opencc_dict not found in {OPENCC_DIR}"
        )
    with tempfile.TemporaryDirectory() as tmp:
        text_file = Path(tmp) / f"{name}.txt"
        subprocess.run(
            [str(tool), "-i", str(source), "-o", str(text_file), "-f", "ocd2", "-t", "text"],
            check=True,
            capture_output=True,
        )
        lines = text_file.read_text(encoding="utf-8").splitlines()
    mapping: dict[str, list[str]] = {}
    for line in lines:
        key, _tab, values = line.partition("\t")
        if key:
            mapping[key] = values.split()
    return mapping


@cache
def simplified_only_characters() -> frozenset[str]:
    """Characters that only occur in Simplified Chinese, from OpenCC's character dictionaries."""
    simplified_to_traditional = _read_dictionary("STCharacters")
    traditional_to_simplified = _read_dictionary("TSCharacters")
    return frozenset(
        char
        for char, traditional in simplified_to_traditional.items()
        if char not in traditional and char not in traditional_to_simplified
    )


@cache
def _to_traditional() -> opencc.OpenCC:
    return opencc.OpenCC("s2t")


def find_simplified(text: str) -> list[str]:
    """The Simplified-only characters in `text`, each once, in order of appearance."""
    simplified = simplified_only_characters()
    return list(dict.fromkeys(char for char in text if char in simplified))


def to_traditional(text: str) -> str:
    """Convert `text` to Traditional Chinese with OpenCC's phrase-aware s2t conversion."""
    return _to_traditional().convert(text)


@cache
def _to_taiwan() -> opencc.OpenCC:
    return opencc.OpenCC("s2twp")


def to_taiwan(text: str) -> str:
    """Convert `text` to Traditional Chinese in Taiwan usage (OpenCC's s2twp: 网络 -> 網路)."""
    return _to_taiwan().convert(text)


def replacements(text: str) -> list[tuple[str, str]]:
    """(Simplified run, what to write) for each run of `text` that holds Simplified-only
    characters, each once, in order: 资料中心网络 -> [(资, 資), (网络, 網路)].

    A run is a stretch s2twp changes, found by comparing the text with its conversion (the
    conversion may change its length: 内存 -> 記憶體). s2twp rewrites some words around a kept
    character (打印机 -> 印表機: 打 dropped, 印 kept, 机 -> 表機); a character dropped or added
    one kept character away from a change is part of the same run.
    """
    simplified = simplified_only_characters()
    converted = to_taiwan(text)
    changed: list[list[int]] = []  # [start, end, converted start, converted end]
    last_tag = ""
    opcodes = SequenceMatcher(None, text, converted, autojunk=False).get_opcodes()
    for tag, start, end, new_start, new_end in opcodes:
        if tag == "equal":
            continue
        gap = start - changed[-1][1] if changed else None
        if gap == 0 or (gap == 1 and not tag == last_tag == "replace"):
            changed[-1][1], changed[-1][3] = end, new_end
        else:
            changed.append([start, end, new_start, new_end])
        last_tag = tag
    found: dict[str, str] = {}
    for start, end, new_start, new_end in changed:
        run = text[start:end]
        if any(char in simplified for char in run):
            found.setdefault(run, converted[new_start:new_end])
    for char in find_simplified(text):  # never left unsaid, should a comparison miss one
        if not any(char in run for run in found):
            found[char] = to_taiwan(char)
    return list(found.items())


def describe_replacements(pairs: list[tuple[str, str]]) -> tuple[str, str]:
    """The runs and their replacements as two lists for a message (资、网络 and 資、網路)."""
    return "、".join(run for run, _ in pairs), "、".join(new for _, new in pairs)


@dataclass(frozen=True)
class SimplifiedText:
    """A piece of content that contains Simplified-only characters."""

    where: str
    characters: list[str]
    excerpt: str
    replacements: list[tuple[str, str]]  # (Simplified run, Taiwan form), see `replacements`

    def __str__(self) -> str:
        # In the reader's language (the translator's admin runs in zh-hant), with the
        # replacement, so the translator need not look it up.
        runs, traditional = describe_replacements(self.replacements)
        return gettext(
            "{where}: Simplified {characters} in “{excerpt}”; write {traditional}"
        ).format(where=self.where, characters=runs, excerpt=self.excerpt, traditional=traditional)


def simplified_message(text: str) -> str | None:
    """What the translator is told about one text they saved, in their language; None when it
    holds no Simplified-only character. The text is in front of them, so it names only the
    Simplified runs and what to write instead (网络: 網路)."""
    pairs = replacements(text)
    if not pairs:
        return None
    runs, traditional = describe_replacements(pairs)
    return gettext(
        "Simplified Chinese {characters}: write {traditional} instead. It cannot be published."
    ).format(characters=runs, traditional=traditional)


def _excerpt(text: str, char: str, width: int = 12) -> str:
    at = text.index(char)
    return text[max(0, at - width) : at + width + 1].replace("\n", " ")


def check_texts(texts: Iterable[tuple[str, str]]) -> Iterator[SimplifiedText]:
    """Yield a finding for each (where, text) pair whose text holds Simplified-only characters."""
    for where, text in texts:
        characters = find_simplified(text)
        if characters:
            excerpt = _excerpt(text, characters[0])
            yield SimplifiedText(where, characters, excerpt, replacements(text))
