"""Read and validate the seed file (digests.json) before anything touches the database.

Every problem is reported with the file, the topic or digest, and the field, so an editor can
fix the file without reading code.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.utils.translation import gettext as _
from wagtail.models import Page

from cms.papers.models import PaperAffiliation, Track, Venue

from .models import DigestPage

DEFAULT_SEED_PATH = Path(__file__).resolve().parent.parent / "seed" / "digests.json"
LANGS = ("en", "zh-hant")


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


def _max_length(model, field: str) -> int:
    return model._meta.get_field(field).max_length


# Checked here so that an overlong value is named like any other problem, not left to the
# database (which words it differently on each backend, if at all).
TITLE_LENGTH = _max_length(Page, "title")
SHORT_NAME_LENGTH = _max_length(DigestPage, "short_name")
AFFILIATION_LENGTH = _max_length(PaperAffiliation, "name")


class _Reader:
    """Validates one JSON document, carrying the file name into every error."""

    def __init__(self, path: Path):
        self.path = path

    def fail(self, where: str, field: str, problem: str) -> SeedError:
        return SeedError(
            _("%(file)s: %(where)s: field '%(field)s' %(problem)s")
            % {"file": self.path, "where": where, "field": field, "problem": problem}
        )

    def text(self, data: dict, where: str, field: str, max_length: int | None = None) -> str:
        return self._string(data.get(field), where, field, max_length)

    def bilingual(
        self, data: dict, where: str, field: str, max_length: int | None = None
    ) -> Bilingual:
        value = data.get(field)
        if not isinstance(value, dict):
            raise self.fail(where, field, _("must be an object with 'en' and 'zh-hant'"))
        return Bilingual(
            en=self._string(value.get("en"), where, f"{field}.en", max_length),
            zh_hant=self._string(value.get("zh-hant"), where, f"{field}.zh-hant", max_length),
        )

    def _string(self, value: Any, where: str, field: str, max_length: int | None) -> str:
        if not isinstance(value, str) or not value.strip():
            raise self.fail(where, field, _("must be a non-empty string, got %r") % (value,))
        if max_length is not None and len(value) > max_length:
            raise self.fail(
                where,
                field,
                _("must be at most %(max)d characters, got %(length)d")
                % {"max": max_length, "length": len(value)},
            )
        return value

    def integer(self, data: dict, where: str, field: str, low: int, high: int) -> int:
        value = data.get(field)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise self.fail(
                where,
                field,
                _("must be a whole number from %(low)s to %(high)s, got %(value)r")
                % {"low": low, "high": high, "value": value},
            )
        return value

    def digest(self, data: Any, where: str) -> SeedDigest:
        if not isinstance(data, dict):
            raise self.fail(where, "digests[]", _("must hold objects"))
        short_name = self.text(data, where, "short_name", SHORT_NAME_LENGTH)
        where = f"{where}, digest '{short_name}'"
        venue = data.get("venue")
        if venue not in Venue.values:
            raise self.fail(
                where,
                "venue",
                _("must be one of %(choices)s, got %(value)r")
                % {"choices": ", ".join(Venue.values), "value": venue},
            )
        track = data.get("track")
        if track is not None and track not in Track.values:
            raise self.fail(
                where,
                "track",
                _("must be null or one of %(choices)s, got %(value)r")
                % {"choices": ", ".join(Track.values), "value": track},
            )
        affiliations = data.get("affiliations", [])
        if not isinstance(affiliations, list):
            raise self.fail(where, "affiliations", _("must be a list of non-empty strings"))
        for number, item in enumerate(affiliations):
            if not isinstance(item, str) or not item.strip():
                raise self.fail(where, "affiliations", _("must be a list of non-empty strings"))
            self._string(item, where, f"affiliations[{number}]", AFFILIATION_LENGTH)
        return SeedDigest(
            short_name=short_name,
            venue=venue,
            year=self.integer(data, where, "year", 1970, 2100),
            track=track or "",
            reading_minutes=self.integer(data, where, "reading_minutes", 1, 600),
            title=self.bilingual(data, where, "title", TITLE_LENGTH),
            summary=self.bilingual(data, where, "summary"),
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
            raise self.fail("top level", "", _("must be a JSON object"))
        site = data.get("site")
        if not isinstance(site, dict):
            raise self.fail("top level", "site", _("must be an object"))
        topics = data.get("topics")
        if not isinstance(topics, list) or not topics:
            raise self.fail("top level", "topics", _("must be a non-empty list"))
        parsed = SeedSite(
            title=self.bilingual(site, "site", "title", TITLE_LENGTH),
            intro=self.bilingual(site, "site", "intro"),
            topics=tuple(self.topic(item, number) for number, item in enumerate(topics, 1)),
        )
        seen: set[str] = set()
        for topic in parsed.topics:
            for digest in topic.digests:
                if digest.short_name in seen:
                    raise self.fail(
                        f"digest '{digest.short_name}'", "short_name", _("appears more than once")
                    )
                seen.add(digest.short_name)
        return parsed


def load_seed(path: Path | str = DEFAULT_SEED_PATH) -> SeedSite:
    """Parse and validate a seed file; raises SeedError naming the file, item and field."""
    path = Path(path)
    try:
        raw = path.read_text(encoding="utf-8")
    except OSError as error:
        raise SeedError(
            _("%(file)s: cannot be read: %(error)s") % {"file": path, "error": error}
        ) from error
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as error:
        raise SeedError(
            _("%(file)s: not valid JSON at line %(line)s, column %(col)s: %(msg)s")
            % {"file": path, "line": error.lineno, "col": error.colno, "msg": error.msg}
        ) from error
    return _Reader(path).site(data)
