"""Read and validate the seed file (digests.json) before anything touches the database.

Every problem is reported in one line with the file, the topic or digest, and the field, so an
editor can fix the file without reading code. A hostile or broken file gets the same kind of
message, never a traceback, and costs no more than `IMPORT_MAX_BYTES` of reading: the size is
checked before the file is read, the text must be UTF-8, numbers and nesting are bounded while
parsing, and every text field has a length limit.
"""

import json
import reprlib
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.conf import settings
from django.utils.text import slugify
from django.utils.translation import gettext as _
from wagtail.models import Page

from cms.digests.models import READING_MINUTES, DigestPage
from cms.papers.models import EARLIEST_YEAR, PaperAffiliation, Track, Venue, latest_year
from cms.translation.guard.zh_hant import find_simplified

DEFAULT_SEED_PATH = Path(__file__).resolve().parent / "digests.json"


class SeedError(ValueError):
    """The seed file is malformed; the message names the file, the item and the field."""


@dataclass(frozen=True)
class Bilingual:
    en: str
    zh_hant: str


@dataclass(frozen=True)
class SeedDigest:
    short_name: str
    venue: str
    year: int
    track: str
    reading_minutes: int
    title: Bilingual
    summary: Bilingual
    affiliations: tuple[str, ...]


@dataclass(frozen=True)
class SeedTopic:
    name: Bilingual
    digests: tuple[SeedDigest, ...]


@dataclass(frozen=True)
class SeedSite:
    title: Bilingual
    intro: Bilingual
    topics: tuple[SeedTopic, ...]

    @property
    def digest_count(self) -> int:
        return sum(len(topic.digests) for topic in self.topics)

    @property
    def page_count(self) -> int:
        """English pages the seed describes (each with its translation): root, topics, digests."""
        return 1 + len(self.topics) + self.digest_count


def _max_length(model, field: str) -> int:
    return model._meta.get_field(field).max_length


# Checked here so that an overlong value is named like any other problem, not left to the
# database (which words it differently on each backend, if at all).
TITLE_LENGTH = _max_length(Page, "title")
SHORT_NAME_LENGTH = _max_length(DigestPage, "short_name")
AFFILIATION_LENGTH = _max_length(PaperAffiliation, "name")
# Text columns have no limit of their own; these are generous for a digest and keep a hostile
# file from putting megabytes into every revision, source and translated string.
SUMMARY_LENGTH = 2_000
INTRO_LENGTH = 5_000
# Years and reading times need four digits; Python refuses to convert an integer of more than
# 4,300 digits (sys.get_int_max_str_digits), and anything this long is a mistake anyway.
INTEGER_DIGITS = 18
# Line breaks and tabs belong only in the multi-line fields (summaries, the site intro). No
# other control character is text an editor could type, and NUL is one PostgreSQL cannot store.
LINE_CONTROLS = "\t\n\r"
# Unicode's explicit direction embeddings, overrides and isolates: invisible, they make a title
# show in another order than it reads (a "Trojan Source" title) and no digest needs them.
DIRECTION_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

# A value for an error message: a few dozen characters, however large it is.
_shown = reprlib.Repr()
_shown.maxstring = _shown.maxother = 60
_shown.maxlist = _shown.maxdict = 4


class _IntegerTooLong(Exception):
    def __init__(self, digits: int) -> None:
        self.digits = digits


class _DuplicateKey(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _object_without_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object for json.loads, refusing a key given twice: the last would silently win."""
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            raise _DuplicateKey(key)
        seen.add(key)
    return dict(pairs)


def _bounded_int(text: str) -> int:
    """`int()` for json.loads, refusing numbers too long to be a year or a count."""
    digits = len(text.lstrip("-"))
    if digits > INTEGER_DIGITS:
        raise _IntegerTooLong(digits)
    return int(text)


class _Reader:
    """Validates one JSON document, carrying the file name into every error."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, where: str, field: str, problem: str) -> SeedError:
        return SeedError(
            _("%(file)s: %(where)s: field '%(field)s' %(problem)s")
            % {"file": self.path, "where": where, "field": field, "problem": problem}
        )

    def bilingual(
        self,
        data: dict,
        where: str,
        field: str,
        max_length: int | None = None,
        *,
        multiline: bool = False,
    ) -> Bilingual:
        value = data.get(field)
        if not isinstance(value, dict):
            raise self.fail(where, field, _("must be an object with 'en' and 'zh-hant'"))
        en = self.text(value.get("en"), where, f"{field}.en", max_length, multiline=multiline)
        zh_field = f"{field}.zh-hant"
        zh_hant = self.text(value.get("zh-hant"), where, zh_field, max_length, multiline=multiline)
        # The zh-Hant guard would refuse to publish it midway through the import; name it now.
        if simplified := find_simplified(zh_hant):
            raise self.fail(
                where,
                zh_field,
                _("holds Simplified Chinese characters (%(characters)s): Traditional expected")
                % {"characters": "".join(simplified)},
            )
        return Bilingual(en=en, zh_hant=zh_hant)

    def text(
        self,
        value: Any,
        where: str,
        field: str,
        max_length: int | None = None,
        *,
        multiline: bool = False,
    ) -> str:
        """`value` if it is non-empty text of at most `max_length` characters."""
        if not isinstance(value, str) or not value.strip():
            raise self.fail(
                where, field, _("must be a non-empty string, got %s") % _shown.repr(value)
            )
        if max_length is not None and len(value) > max_length:
            raise self.fail(
                where,
                field,
                _("must be at most %(max)d characters, got %(length)d")
                % {"max": max_length, "length": len(value)},
            )
        # Not storable text: a lone surrogate (JSON's \ud800, which UTF-8 cannot encode), or
        # a control character other than line breaks and tabs in a multi-line field.
        allowed = LINE_CONTROLS if multiline else ""
        for position, char in enumerate(value, 1):
            category = unicodedata.category(char)
            if category == "Cs" or (category == "Cc" and char not in allowed):
                raise self.fail(
                    where,
                    field,
                    _("holds U+%(code)04X (character %(position)d), which is not text")
                    % {"code": ord(char), "position": position},
                )
            if char in DIRECTION_CONTROLS:
                raise self.fail(
                    where,
                    field,
                    _(
                        "holds U+%(code)04X (character %(position)d), an invisible direction "
                        "control that would show the text in another order than it reads"
                    )
                    % {"code": ord(char), "position": position},
                )
        return value

    def integer(self, data: dict, where: str, field: str, low: int, high: int) -> int:
        value = data.get(field)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(
                where,
                field,
                _("must be a whole number from %(low)s to %(high)s, got %(value)s")
                % {"low": low, "high": high, "value": _shown.repr(value)},
            )
        return value

    def digest(self, data: Any, where: str) -> SeedDigest:
        if not isinstance(data, dict):
            raise self.fail(where, "digests[]", _("must hold objects"))
        short_name = self.text(data.get("short_name"), where, "short_name", SHORT_NAME_LENGTH)
        where = f"{where}, digest '{short_name}'"
        venue = data.get("venue")
        if venue not in Venue.values:
            raise self.fail(
                where,
                "venue",
                _("must be one of %(choices)s, got %(value)s")
                % {"choices": ", ".join(Venue.values), "value": _shown.repr(venue)},
            )
        track = data.get("track")
        if track is not None and track not in Track.values:
            raise self.fail(
                where,
                "track",
                _("must be null or one of %(choices)s, got %(value)s")
                % {"choices": ", ".join(Track.values), "value": _shown.repr(track)},
            )
        affiliations = data.get("affiliations", [])
        if not isinstance(affiliations, list):
            raise self.fail(where, "affiliations", _("must be a list of non-empty strings"))
        for number, item in enumerate(affiliations):
            if not isinstance(item, str) or not item.strip():
                raise self.fail(where, "affiliations", _("must be a list of non-empty strings"))
            self.text(item, where, f"affiliations[{number}]", AFFILIATION_LENGTH)
        return SeedDigest(
            short_name=short_name,
            venue=venue,
            year=self.integer(data, where, "year", EARLIEST_YEAR, latest_year()),
            track=track or "",
            reading_minutes=self.integer(data, where, "reading_minutes", *READING_MINUTES),
            title=self.bilingual(data, where, "title", TITLE_LENGTH),
            summary=self.bilingual(data, where, "summary", SUMMARY_LENGTH, multiline=True),
            affiliations=tuple(affiliations),
        )

    def topic(self, data: Any, index: int) -> SeedTopic:
        where = f"topic {index}"
        if not isinstance(data, dict):
            raise self.fail(where, "topics[]", _("must hold objects"))
        name = self.bilingual(data, where, "name", TITLE_LENGTH)
        where = f"topic {index} '{name.en}'"
        digests = data.get("digests")
        if not isinstance(digests, list) or not digests:
            raise self.fail(where, "digests", _("must be a non-empty list"))
        return SeedTopic(name=name, digests=tuple(self.digest(item, where) for item in digests))

    def site(self, data: Any) -> SeedSite:
        if not isinstance(data, dict):
            shown = json.dumps(data, ensure_ascii=False)  # as the file wrote it: null, not None
            raise SeedError(
                _("%(file)s: must hold one JSON object with 'site' and 'topics', got %(value)s")
                % {"file": self.path, "value": shown if len(shown) <= 60 else shown[:57] + "..."}
            )
        site = data.get("site")
        if not isinstance(site, dict):
            raise self.fail("top level", "site", _("must be an object"))
        topics = data.get("topics")
        if not isinstance(topics, list) or not topics:
            raise self.fail("top level", "topics", _("must be a non-empty list"))
        parsed = SeedSite(
            title=self.bilingual(site, "site", "title", TITLE_LENGTH),
            intro=self.bilingual(site, "site", "intro", INTRO_LENGTH, multiline=True),
            topics=tuple(self.topic(item, number) for number, item in enumerate(topics, 1)),
        )
        self.distinct_topics(parsed.topics)
        self.distinct_digests(parsed.topics)
        return parsed

    def slug(self, value: str, where: str, field: str) -> str:
        slug = slugify(value)
        if not slug:
            raise self.fail(
                where, field, _("gives no URL slug: it needs a Latin letter or a digit")
            )
        return slug

    def distinct_topics(self, topics: tuple[SeedTopic, ...]) -> None:
        """Topics are pages found by their slug: two with one slug (or one name) would merge,
        the second's Chinese name lost."""
        slugs: dict[str, int] = {}
        zh_names: dict[str, int] = {}
        for number, topic in enumerate(topics, 1):
            where = f"topic {number} '{topic.name.en}'"
            slug = self.slug(topic.name.en, where, "name.en")
            if slug in slugs:
                raise self.fail(
                    where,
                    "name.en",
                    _(
                        "gives the URL slug '%(slug)s', as topic %(other)s does: each topic "
                        "needs a name of its own"
                    )
                    % {"slug": slug, "other": slugs[slug]},
                )
            if topic.name.zh_hant in zh_names:
                raise self.fail(
                    where,
                    "name.zh-hant",
                    _("is also the name of topic %(other)s: each topic needs a name of its own")
                    % {"other": zh_names[topic.name.zh_hant]},
                )
            slugs[slug] = zh_names[topic.name.zh_hant] = number

    def distinct_digests(self, topics: tuple[SeedTopic, ...]) -> None:
        """Digests are found by short name and by the slug it gives."""
        short_names: set[str] = set()
        slugs: dict[str, str] = {}
        for topic in topics:
            for digest in topic.digests:
                where = f"digest '{digest.short_name}'"
                if digest.short_name in short_names:
                    raise self.fail(where, "short_name", _("appears more than once"))
                slug = self.slug(digest.short_name, where, "short_name")
                if slug in slugs:
                    raise self.fail(
                        where,
                        "short_name",
                        _("gives the URL slug '%(slug)s', as digest '%(other)s' does")
                        % {"slug": slug, "other": slugs[slug]},
                    )
                short_names.add(digest.short_name)
                slugs[slug] = digest.short_name


def _too_large(path: Path, size: int, limit: int, *, at_least: bool) -> SeedError:
    message = (
        _(
            "%(file)s: is more than %(size)s bytes, over the import limit of %(limit)s bytes "
            "(IMPORT_MAX_BYTES)"
        )
        if at_least
        else _(
            "%(file)s: is %(size)s bytes, over the import limit of %(limit)s bytes "
            "(IMPORT_MAX_BYTES)"
        )
    )
    return SeedError(message % {"file": path, "size": f"{size:,}", "limit": f"{limit:,}"})


def read_seed_text(path: Path) -> str:
    """The file's text, read only if it is within IMPORT_MAX_BYTES and only if it is UTF-8."""
    limit = settings.IMPORT_MAX_BYTES
    try:
        size = path.stat().st_size
        if size > limit:  # before reading anything
            raise _too_large(path, size, limit, at_least=False)
        with path.open("rb") as file:
            raw = file.read(limit + 1)  # a file that grew, or a pipe, which has no size
    except OSError as error:
        raise SeedError(
            _("%(file)s: cannot be read: %(error)s") % {"file": path, "error": error}
        ) from error
    if len(raw) > limit:
        raise _too_large(path, limit, limit, at_least=True)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw.count(b"\n", 0, error.start) + 1
        raise SeedError(
            _("%(file)s: is not UTF-8 text: byte %(byte)s at line %(line)s (save it as UTF-8)")
            % {"file": path, "byte": f"0x{raw[error.start]:02x}", "line": line}
        ) from None


def parse_seed_json(path: Path, text: str) -> Any:
    """The JSON document, with one-line errors for what json.loads would raise or allow."""
    try:
        return json.loads(
            text, parse_int=_bounded_int, object_pairs_hook=_object_without_duplicate_keys
        )
    except json.JSONDecodeError as error:
        raise SeedError(
            _("%(file)s: not valid JSON at line %(line)s, column %(col)s: %(msg)s")
            % {"file": path, "line": error.lineno, "col": error.colno, "msg": error.msg}
        ) from None
    except RecursionError:
        raise SeedError(
            _("%(file)s: arrays or objects are nested too deeply to read") % {"file": path}
        ) from None
    except _DuplicateKey as error:
        raise SeedError(
            _("%(file)s: an object gives the key %(key)s twice; which one is meant is unclear")
            % {"file": path, "key": json.dumps(error.key, ensure_ascii=False)}
        ) from None
    except _IntegerTooLong as error:
        raise SeedError(
            _("%(file)s: a number has %(digits)s digits; numbers may have at most %(max)s")
            % {"file": path, "digits": f"{error.digits:,}", "max": INTEGER_DIGITS}
        ) from None


def load_seed(path: Path | str = DEFAULT_SEED_PATH) -> SeedSite:
    """Parse and validate a seed file; raises SeedError naming the file, item and field."""
    path = Path(path)
    return _Reader(path).site(parse_seed_json(path, read_seed_text(path)))
