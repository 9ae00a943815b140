"""Fixtures of the seed import tests: an editable copy of the seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest


class SeedCopy:
    """The shipped seed's JSON in `data`, to edit; `write()` saves it where an import reads it."""

    def __init__(self, seed_path: Path, folder: Path) -> None:
        self.data: dict = json.loads(seed_path.read_text(encoding="utf-8"))
        self.folder = folder

    def write(self, name: str = "seed.json") -> Path:
        path = self.folder / name
        path.write_text(json.dumps(self.data, ensure_ascii=False), encoding="utf-8")
        return path


@pytest.fixture
def seed_copy(seed_path, tmp_path) -> SeedCopy:
    """A fresh copy of the seed per test, so tests feed the import edited files."""
    return SeedCopy(seed_path, tmp_path)
