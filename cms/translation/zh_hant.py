"""The zh-Hant guard: find Simplified-only characters in text meant to be Traditional Chinese.

The character data is OpenCC's, from the OpenCC project's own package (`opencc`), not a table
of our own: a character is Simplified-only when OpenCC maps it to a different Traditional
character and it is not itself a Traditional character (so 网 and 络 are flagged, while 里 or 着,
which are valid in both scripts, are not).

The package's Python API only converts text, which gives a character's first Traditional
candidate and so cannot tell 里 (里 -> 裏 裡 里) from 网 (网 -> 網). The candidate lists are in
the compiled dictionaries it ships; we read them with the `opencc_dict` tool shipped beside them,
once per process. Upstream would need a Python call listing a dictionary's entries to drop that.
"""

import subprocess
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
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


def traditional_forms(characters: list[str]) -> str:
    """The Traditional form OpenCC gives each of `characters` (网络 -> 網絡), to suggest."""
    return "".join(to_traditional(char) for char in characters)


@dataclass(frozen=True)
class SimplifiedText:
    """A piece of content that contains Simplified-only characters."""

    where: str
    characters: list[str]
    excerpt: str

    def __str__(self) -> str:
        # In the reader's language (the translator's admin runs in zh-hant), with the
        # replacement, so the translator need not look it up.
        return gettext(
            "{where}: Simplified {characters} in “{excerpt}”; write {traditional}"
        ).format(
            where=self.where,
            characters="".join(self.characters),
            excerpt=self.excerpt,
            traditional=traditional_forms(self.characters),
        )


def simplified_message(text: str) -> str | None:
    """What the translator is told about one text they saved, in their language; None when it
    holds no Simplified-only character. The text is in front of them, so it names only the
    characters and their Traditional forms."""
    characters = find_simplified(text)
    if not characters:
        return None
    return gettext(
        "Simplified Chinese {characters}: write {traditional} instead. It cannot be published."
    ).format(characters="".join(characters), traditional=traditional_forms(characters))


def _excerpt(text: str, char: str, width: int = 12) -> str:
    at = text.index(char)
    return text[max(0, at - width) : at + width + 1].replace("\n", " ")


def check_texts(texts: Iterable[tuple[str, str]]) -> Iterator[SimplifiedText]:
    """Yield a finding for each (where, text) pair whose text holds Simplified-only characters."""
    for where, text in texts:
        characters = find_simplified(text)
        if characters:
            yield SimplifiedText(where, characters, _excerpt(text, characters[0]))
