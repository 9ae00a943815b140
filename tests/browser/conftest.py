"""Browser fixtures: one headless Debian chromium per session, and a live server with the seed.

`live_server` tests are transactional, so the database is flushed after each one; the seed is
restored before each browser test from a snapshot (`committed_seed`, tests/conftest.py).
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
ARTIFACTS = Path(__file__).resolve().parent.parent.parent / "test-artifacts"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def seeded_live_server(live_server, committed_seed):
    """A live server whose database holds the seed, committed, in both languages."""
    return live_server


@pytest.fixture(scope="session")
def browser() -> Iterator:
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `make browser` (installs Debian's chromium)")
    # Playwright's sync API keeps an event loop running in this thread for the whole session;
    # the tests' ORM calls are still synchronous, so Django's async-safety guard must stand down.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def page(browser):
    """A fresh browser context (empty localStorage) per test, phone-sized by default."""
    context = browser.new_context(viewport=PHONE, locale="en-US")
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"


@pytest.fixture
def screenshot():
    """Save a full-page screenshot under test-artifacts/<group>/<name>.png."""

    def take(page, group: str, name: str) -> Path:
        path = ARTIFACTS / group / f"{name}.png"
        path.parent.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


AXE_JS = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
BLOCKING_IMPACTS = {"serious", "critical"}


@pytest.fixture
def axe_violations():
    """Run axe-core (vendored, injected into the page) and return serious or critical violations
    (every violation, of any impact, with `impacts=None`)."""

    def run(page, impacts: set[str] | None = BLOCKING_IMPACTS) -> list[dict]:
        # Evaluated through the DevTools protocol rather than a <script> tag, so a strict
        # Content-Security-Policy on the page cannot block it.
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.evaluate(AXE_JS.read_text(encoding="utf-8"))
        violations = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
                .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                              nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}))"""
        )
        if impacts is None:
            return violations
        return [violation for violation in violations if violation["impact"] in impacts]

    return run
