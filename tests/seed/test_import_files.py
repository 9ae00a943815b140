"""import_digests on hostile and broken files: a one-line error, exit status 1, nothing written.

The last test is a file that validates but that Wagtail refuses while it is being written.

Each file runs through `manage.py import_digests` as the shell calls it (`run_from_argv`), so
the exit status and what reaches stderr are the ones an operator sees.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connections
from wagtail.models import Page

from cms.digests.models import DigestIndexPage, DigestPage
from cms.seed.management.commands.import_digests import Command
from cms.seed.parse import INTEGER_DIGITS, SUMMARY_LENGTH

from .import_snapshot import differences, snapshot

pytestmark = pytest.mark.django_db

MB = 1024 * 1024


@pytest.fixture
def run_cli(monkeypatch, capsys):
    """`manage.py import_digests ARGS`: its exit status and stderr, and whether it wrote.

    run_from_argv closes the database connections when it ends, as a process about to exit
    does; here that would end the test's transaction, so that step is left out.
    """
    monkeypatch.setattr(connections, "close_all", lambda: None)

    def run(*args: str) -> tuple[int, str, dict]:
        before = snapshot()
        capsys.readouterr()
        with pytest.raises(SystemExit) as exited:
            Command().run_from_argv(["manage.py", "import_digests", *args])
        stderr = capsys.readouterr().err
        return exited.value.code, stderr, differences(before, snapshot())

    return run


def assert_one_line_error(status: int, stderr: str, written: dict, *expected: str) -> None:
    assert status == 1
    assert stderr.startswith("CommandError: ") and stderr.count("\n") == 1, stderr[:2000]
    assert "Traceback" not in stderr
    for text in expected:
        assert text in stderr, stderr
    assert written == {}


def _seed_with(seed_copy, name: str, placeholder: str, replacement: bytes) -> Path:
    """The seed with one JSON value replaced by raw bytes (which json.dumps could not write)."""
    text = json.dumps(seed_copy.data, ensure_ascii=False)
    assert text.count(json.dumps(placeholder)) == 1
    before, after = text.split(json.dumps(placeholder))
    path = seed_copy.folder / name
    with path.open("wb") as file:
        file.write(before.encode())
        file.write(replacement)
        file.write(after.encode())
    return path


def test_a_latin_1_file(seed_copy, run_cli):
    """Saved by a Latin-1 editor: "é" is one byte, and Chinese text is lost to "?"."""
    seed_copy.data["site"]["title"]["en"] = "Research digests café"
    path = seed_copy.folder / "latin-1.json"
    text = json.dumps(seed_copy.data, ensure_ascii=False)
    path.write_bytes(text.encode("latin-1", errors="replace"))
    assert_one_line_error(
        *run_cli(str(path)), str(path), "is not UTF-8 text: byte 0xe9 at line 1 (save it as UTF-8)"
    )


def test_deeply_nested_json(seed_copy, run_cli):
    depth = 100_000
    seed_copy.data["site"]["intro"]["en"] = "NESTED"
    path = _seed_with(seed_copy, "nested.json", "NESTED", b"[" * depth + b"]" * depth)
    assert_one_line_error(*run_cli(str(path)), str(path), "nested too deeply")


def test_a_5000_digit_integer(seed_copy, run_cli):
    seed_copy.data["topics"][1]["digests"][0]["year"] = "YEAR"
    path = _seed_with(seed_copy, "digits.json", "YEAR", b"1" + b"0" * 4999)
    assert_one_line_error(
        *run_cli(str(path)),
        str(path),
        f"a number has 5,000 digits; numbers may have at most {INTEGER_DIGITS}",
    )


def test_a_50_mb_summary_is_refused_before_it_is_read(seed_copy, run_cli, settings):
    seed_copy.data["topics"][0]["digests"][0]["summary"]["en"] = "SUMMARY"
    path = _seed_with(seed_copy, "huge.json", "SUMMARY", b'"' + b"x" * (50 * MB) + b'"')
    size = path.stat().st_size
    assert_one_line_error(
        *run_cli(str(path)),
        str(path),
        f"is {size:,} bytes, over the import limit of {settings.IMPORT_MAX_BYTES:,} bytes "
        "(IMPORT_MAX_BYTES)",
    )


def test_a_file_of_many_gigabytes_is_not_read(tmp_path, run_cli):
    """A sparse 64 GiB file: reading it would take minutes and all the memory there is."""
    path = tmp_path / "sparse.json"
    with path.open("wb") as file:
        file.truncate(64 * 1024 * MB)
    assert_one_line_error(*run_cli(str(path)), "is 68,719,476,736 bytes, over the import limit")


def test_a_50_mb_summary_within_a_raised_size_limit_meets_the_field_limit(
    seed_copy, run_cli, settings
):
    settings.IMPORT_MAX_BYTES = 60 * MB
    seed_copy.data["topics"][0]["digests"][0]["summary"]["en"] = "SUMMARY"
    path = _seed_with(seed_copy, "huge.json", "SUMMARY", b'"' + b"x" * (50 * MB) + b'"')
    name = seed_copy.data["topics"][0]["digests"][0]["short_name"]
    assert_one_line_error(
        *run_cli(str(path)),
        str(path),
        f"digest '{name}': field 'summary.en' must be at most {SUMMARY_LENGTH} characters, "
        f"got {50 * MB}",
    )


def test_a_summary_one_character_too_long(seed_copy, run_cli):
    digest = seed_copy.data["topics"][0]["digests"][0]
    digest["summary"]["zh-hant"] = "長" * (SUMMARY_LENGTH + 1)
    path = seed_copy.write("long.json")
    assert_one_line_error(
        *run_cli(str(path)),
        f"field 'summary.zh-hant' must be at most {SUMMARY_LENGTH} characters, "
        f"got {SUMMARY_LENGTH + 1}",
    )


def test_two_topics_with_the_same_name(seed_copy, run_cli):
    """Today's seed has 11 topics; a twelfth named like the third would merge into it."""
    topics = seed_copy.data["topics"]
    copy = json.loads(json.dumps(topics[2]))
    copy["name"]["zh-hant"] = "另一個中文名稱"
    copy["digests"] = [dict(copy["digests"][0], short_name="Elsewhere")]
    topics.append(copy)
    path = seed_copy.write("same-name.json")
    name = topics[2]["name"]["en"]
    assert_one_line_error(
        *run_cli(str(path), "--update"),
        str(path),
        f"topic 12 '{name}': field 'name.en' gives the URL slug 'parallelism-and-moe', "
        "as topic 3 does",
    )


def test_two_topics_with_the_same_slug(seed_copy, run_cli):
    topics = seed_copy.data["topics"]
    copy = json.loads(json.dumps(topics[2]))
    copy["name"] = {"en": topics[2]["name"]["en"].upper() + "!", "zh-hant": "另一個中文名稱"}
    copy["digests"] = [dict(copy["digests"][0], short_name="Elsewhere")]
    topics.append(copy)
    assert_one_line_error(
        *run_cli(str(seed_copy.write("same-slug.json"))),
        "field 'name.en' gives the URL slug 'parallelism-and-moe', as topic 3 does",
    )


def test_two_topics_with_the_same_chinese_name(seed_copy, run_cli):
    topics = seed_copy.data["topics"]
    topics[4]["name"]["zh-hant"] = topics[1]["name"]["zh-hant"]
    assert_one_line_error(
        *run_cli(str(seed_copy.write("same-zh-name.json"))),
        "topic 5 ",
        "field 'name.zh-hant' is also the name of topic 2",
    )


def test_two_digests_with_the_same_slug(seed_copy, run_cli):
    digests = seed_copy.data["topics"][0]["digests"]
    digests.append(dict(digests[0], short_name=digests[0]["short_name"].lower()))
    assert_one_line_error(
        *run_cli(str(seed_copy.write("same-digest-slug.json"))),
        f"digest '{digests[0]['short_name'].lower()}': field 'short_name' gives the URL slug",
    )


def test_a_value_of_the_wrong_kind_is_shown_shortened(seed_copy, run_cli):
    seed_copy.data["topics"][0]["digests"][0]["title"]["en"] = ["x" * 100_000] * 10
    status, stderr, written = run_cli(str(seed_copy.write("list.json")))
    assert_one_line_error(status, stderr, written, "field 'title.en' must be a non-empty string")
    assert len(stderr) < 1000


def test_a_page_wagtail_refuses_while_writing(seed_copy, run_cli):
    """A slug held by a page of another type, which the file does not describe: Wagtail's own
    validation names it, and the pages created before it in the same run are rolled back."""
    index = DigestIndexPage.objects.get(locale__language_code="en")
    index.add_child(instance=Page(title="Hand-made", slug="taken-by-hand", locale=index.locale))
    data = seed_copy.data
    template = data["topics"][0]["digests"][0]
    data["topics"] += [
        {
            "name": {"en": "Before", "zh-hant": "之前"},
            "digests": [dict(template, short_name="Before1")],
        },
        {
            "name": {"en": "Taken by hand", "zh-hant": "手工"},
            "digests": [dict(template, short_name="Shadowed")],
        },
    ]
    assert_one_line_error(
        *run_cli(str(seed_copy.write("taken.json"))),
        "CommandError: Import failed, nothing was changed: ",
        "taken-by-hand",
    )


@pytest.mark.parametrize(
    ("field", "raw", "named"),
    [
        ("title.en", rb'"Bad\u0000title"', "field 'title.en' holds U+0000 (character 4)"),
        ("title.en", rb'"Two\nlines"', "field 'title.en' holds U+000A (character 4)"),
        ("title.en", rb'"Fab\ud800"', "field 'title.en' holds U+D800 (character 4)"),
        ("summary.zh-hant", rb'"\u6458\u8981\u0007"', "field 'summary.zh-hant' holds U+0007"),
    ],
)
def test_text_that_is_not_storable_text_is_named(seed_copy, run_cli, field, raw, named):
    """NUL (which PostgreSQL refuses), a lone surrogate (which UTF-8 cannot encode) and control
    characters: before, the first two failed midway without naming the field, the others were
    published."""
    name, language = field.split(".")
    digest = seed_copy.data["topics"][0]["digests"][0]
    digest[name][language] = "PLACEHOLDER"
    path = _seed_with(seed_copy, "control.json", "PLACEHOLDER", raw)
    assert_one_line_error(
        *run_cli(str(path), "--update"),
        str(path),
        f"topic 1 'Inside the server', digest '{digest['short_name']}': {named}",
        "which is not text",
    )


@pytest.mark.parametrize("control", ["\u202e", "\u2067"])
def test_a_direction_control_in_a_title_is_named(seed_copy, run_cli, control):
    """An invisible override makes a title show in another order than it reads; it was
    published as it came."""
    digest = seed_copy.data["topics"][0]["digests"][0]
    digest["title"]["en"] = "PLACEHOLDER"
    path = _seed_with(seed_copy, "bidi.json", "PLACEHOLDER", f'"Fab{control}tsaf"'.encode())
    assert_one_line_error(
        *run_cli(str(path), "--update"),
        f"digest '{digest['short_name']}': field 'title.en' holds U+{ord(control):04X} "
        "(character 4), an invisible direction control",
    )


def test_a_key_given_twice_is_named_not_silently_the_last(seed_copy, run_cli):
    """json.loads keeps the last of two equal keys, so a digest read 70 minutes where its
    editor may have meant 7."""
    digest = seed_copy.data["topics"][0]["digests"][0]
    digest["reading_minutes"] = "PLACEHOLDER"
    path = _seed_with(seed_copy, "twice.json", "PLACEHOLDER", b'7, "reading_minutes": 70')
    assert_one_line_error(
        *run_cli(str(path), "--update"),
        f'{path}: an object gives the key "reading_minutes" twice',
    )


def test_line_breaks_are_kept_in_a_summary(seed_copy):
    digest = seed_copy.data["topics"][0]["digests"][0]
    digest["summary"]["en"] = "First paragraph.\n\nSecond paragraph."
    call_command("import_digests", str(seed_copy.write("lines.json")), "--update", verbosity=0)
    page = DigestPage.objects.get(short_name=digest["short_name"], locale__language_code="en")
    assert page.summary == "First paragraph.\n\nSecond paragraph."


def test_simplified_chinese_is_named_before_anything_is_written(seed_copy, run_cli):
    """The zh-Hant guard refused it midway through the writing, naming neither the file nor
    the digest."""
    digest = seed_copy.data["topics"][0]["digests"][0]
    digest["title"]["zh-hant"] = "网络测试"
    path = seed_copy.write("simplified.json")
    assert_one_line_error(
        *run_cli(str(path), "--update"),
        str(path),
        f"digest '{digest['short_name']}': field 'title.zh-hant' holds Simplified Chinese "
        "characters (网络测试)",
    )


@pytest.mark.parametrize(("text", "shown"), [("[]", "[]"), ("null", "null"), ('"x"', '"x"')])
def test_a_file_that_is_not_one_object_says_what_it_holds(tmp_path, run_cli, text, shown):
    """It said "top level: field '' must be a JSON object", naming a field with no name."""
    path = tmp_path / "not-an-object.json"
    path.write_text(text, encoding="utf-8")
    assert_one_line_error(
        *run_cli(str(path)),
        f"{path}: must hold one JSON object with 'site' and 'topics', got {shown}",
    )
