"""Browser fixtures: one headless Debian chromium per session, and a live server with the seed.

`live_server` tests are transactional, so the database is flushed after each one. Importing the
seed again for every test would take most of a minute, so the seeded database is serialized once
per session and restored before each browser test (the same idea as Django's
`serialized_rollback`, with content types first so that restoring never races the signals that
create them).
"""

import os
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib.contenttypes.models import ContentType
from django.core import serializers
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

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
# Search index rows are rebuilt by signals on restore; everything else is copied as it was.
NOT_SNAPSHOTTED_APPS = {"wagtailsearch", "modelsearch"}


def _snapshot_models():
    yield ContentType
    for model in apps.get_models():
        meta = model._meta
        if model is ContentType or meta.app_label in NOT_SNAPSHOTTED_APPS:
            continue
        if meta.managed and not meta.proxy and not meta.swapped:
            yield model


def _serialize_database() -> str:
    def objects():
        for model in _snapshot_models():
            yield from model._base_manager.order_by(model._meta.pk.name).iterator()

    out = StringIO()
    serializers.serialize("json", objects(), stream=out)
    return out.getvalue()


def _restore_database(snapshot: str) -> None:
    call_command("flush", interactive=False, verbosity=0, inhibit_post_migrate=True)
    connection.creation.deserialize_db_from_string(snapshot)
    # Rows came back with their ids: move sequences past them (PostgreSQL) as loaddata does.
    statements = connection.ops.sequence_reset_sql(no_style(), list(_snapshot_models()))
    with connection.cursor() as cursor:
        for sql in statements:
            cursor.execute(sql)
    cache.clear()  # Wagtail caches site root paths


@pytest.fixture(scope="session")
def seeded_snapshot(django_db_setup, django_db_blocker) -> str:
    """The seeded database as JSON, taken once (importing the seed again if it was flushed)."""
    from cms.digests.models import DigestPage

    with django_db_blocker.unblock():
        if not DigestPage.objects.exists():
            call_command("import_digests", verbosity=0)
        return _serialize_database()


@pytest.fixture
def seeded_live_server(live_server, seeded_snapshot):
    """A live server whose database holds the seed, committed, in both languages."""
    _restore_database(seeded_snapshot)
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
    """Run axe-core (vendored, injected into the page) and return serious or critical violations."""

    def run(page) -> list[dict]:
        # Evaluated through the DevTools protocol rather than a <script> tag, so a strict
        # Content-Security-Policy on the page cannot block it.
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.evaluate(AXE_JS.read_text(encoding="utf-8"))
        violations = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
                .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                              nodes: v.nodes.slice(0, 3).map((n) => n.target.join(" "))}))"""
        )
        return [violation for violation in violations if violation["impact"] in BLOCKING_IMPACTS]

    return run
