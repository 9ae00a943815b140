"""The README is the first screen: short, its links lead somewhere, its logins are the real ones.

The rest of the documentation is the MkDocs site under docs/, which `make docs` builds with
--strict (broken links and anchors fail it); the README sits outside that build, so its links
are checked here.
"""

from __future__ import annotations

import re
from pathlib import Path

from markdown.extensions.toc import slugify

from cms.translation.policy.local_logins import LOCAL_LOGINS

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


def test_the_readme_names_the_local_logins_make_run_creates():
    """The logins table lists exactly the local logins (cms.translation.policy.local_logins, the one
    list `make run`'s commands create): user name, password, e-mail address and group."""
    text = README.read_text(encoding="utf-8")
    rows = re.findall(r"^\| `(\w+)` \| `(\w+)` \| `([^`]+)` \| ([^|]*?)\s*\|$", text, re.MULTILINE)
    expected = [(login.username, login.password, login.email) for login in LOCAL_LOGINS]
    assert [row[:3] for row in rows] == expected
    for (_, _, _, role), login in zip(rows, LOCAL_LOGINS, strict=True):
        assert role.startswith(f"{login.role}:" if login.role else "superuser:")
