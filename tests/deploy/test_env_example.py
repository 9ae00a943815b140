"""deploy/.env.example documents every environment variable the code reads."""

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
READ_PATTERNS = [
    r"""os\.environ\.get\(\s*["']([A-Z][A-Z0-9_]+)["']""",
    r"""os\.environ\[\s*["']([A-Z][A-Z0-9_]+)["']\s*\]""",
    r"""os\.environ\.setdefault\(\s*["']([A-Z][A-Z0-9_]+)["']""",
    r"""os\.getenv\(\s*["']([A-Z][A-Z0-9_]+)["']""",
    r"""env_(?:bool|list|int|str)\(\s*["']([A-Z][A-Z0-9_]+)["']""",
    r"""\benv=["']([A-Z][A-Z0-9_]+)["']""",  # dj_database_url.config(env=...)
]

# Knobs of the test suite and of the smoke test (deploy/smoke/), not deployment settings.
NOT_DEPLOYMENT_SETTINGS = [REPO / "cms/settings/test.py", REPO / "deploy/smoke"]


def variables_read_by_the_code() -> set[str]:
    names = set()
    for package in ("cms", "sync", "deploy"):
        for path in (REPO / package).rglob("*.py"):
            if any(path.is_relative_to(excluded) for excluded in NOT_DEPLOYMENT_SETTINGS):
                continue
            text = path.read_text()
            for pattern in READ_PATTERNS:
                names.update(re.findall(pattern, text))
    names.update(re.findall(r"\$\{([A-Z][A-Z0-9_]+)", (REPO / "deploy/compose.yaml").read_text()))
    return names


def variables_documented() -> set[str]:
    text = (REPO / "deploy/.env.example").read_text()
    return set(re.findall(r"^#?\s?([A-Z][A-Z0-9_]+)=", text, flags=re.MULTILINE))


def test_every_variable_is_documented():
    missing = variables_read_by_the_code() - variables_documented()

    assert not missing, f"add to deploy/.env.example: {sorted(missing)}"


def test_the_scan_finds_the_known_settings():
    assert {"DJANGO_SECRET_KEY", "DATABASE_URL", "REDIS_URL", "WEB_CONCURRENCY"} <= (
        variables_read_by_the_code()
    )
