"""The README is the first screen: short, its links lead somewhere, its logins are the real ones.

The rest of the documentation is the MkDocs site under docs/, which `make docs` builds with
--strict (broken links and anchors fail it); the README sits outside that build, so its links
are checked here.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from django.core.management import get_commands
from markdown.extensions.toc import slugify

ROOT = Path(__file__).resolve().parent.parent.parent
README = ROOT / "README.md"
MAX_BYTES = 8000

# [text](target) not preceded by "!" or part of an image; targets without a scheme are relative.
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def slug(heading: str) -> str:
    """The anchor MkDocs gives a heading: the toc extension's default slugify of its text."""
    return slugify(heading.replace("`", ""), "-")


def relative_links(text: str) -> list[str]:
    return [target for target in LINK.findall(text) if not re.match(r"^[a-z]+:", target)]


def test_readme_is_at_most_8000_bytes():
    assert len(README.read_bytes()) <= MAX_BYTES


def test_every_relative_link_in_the_readme_resolves():
    links = relative_links(README.read_text(encoding="utf-8"))
    assert links, "the README links into docs/"
    broken = []
    for target in links:
        path, _, anchor = target.partition("#")
        file = (README.parent / path).resolve()
        if not file.exists():
            broken.append(target)
        elif anchor:
            headings = HEADING.findall(file.read_text(encoding="utf-8"))
            if anchor not in {slug(heading) for heading in headings}:
                broken.append(target)
    assert not broken, f"links in README.md that lead nowhere: {broken}"


def command_module(name: str):
    return importlib.import_module(f"{get_commands()[name]}.management.commands.{name}")


def test_the_readme_names_the_local_logins_the_commands_create():
    """The logins table lists exactly what `create_local_admin` and
    `setup_translation_roles --local-users` create: user name, password, group."""
    text = README.read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| `(\w+)` \|", text, re.MULTILINE))
    admin = command_module("create_local_admin")
    roles = command_module("setup_translation_roles")
    expected = {admin.USERNAME: admin.PASSWORD}
    expected.update({username: username for username in roles.LOCAL_USERS})  # password = name
    assert rows == expected
    for username, group in roles.LOCAL_USERS.items():
        assert re.search(rf"^\| `{username}` \|[^\n]*\| {group}:", text, re.MULTILINE)
