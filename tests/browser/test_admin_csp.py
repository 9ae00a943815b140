"""The Wagtail admin works under its Content-Security-Policy.

An editor signs in and goes where editors go: the dashboard, the sidebar's page explorer, a
topic's page listing, a digest's edit form with its live preview and a paper's form with its
inline author rows; a translator opens wagtail-localize's translation editor. Each screen must
show its scripts' work (which a blocked script would not do) and the browser must report no
`securitypolicyviolation` and no console error, in the top page or in the preview frames.
The policy under test is the one production sends (ADMIN_CONTENT_SECURITY_POLICY in
cms/settings/base.py, applied by cms/ops/csp.py); each admin response is checked to carry it.
"""

import pytest
from wagtail.models import Locale
from wagtail.rich_text import RichText

from cms.digests.models import DigestPage
from cms.translation.policy.roles import EDITORS, TRANSLATORS, ensure_roles

from .conftest import DESKTOP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

# Runs in every frame before the page's own scripts, so no violation can happen unseen.
REPORT_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.reportCspViolation({
    page: location.pathname,
    directive: event.effectiveDirective,
    blocked: event.blockedURI,
    source: event.sourceFile,
    line: event.lineNumber,
    sample: event.sample,
  });
});
"""


class AdminSession:
    """A signed-in browser page that records CSP violations, console errors and policies."""

    def __init__(self, browser, base_url: str):
        self.context = browser.new_context(base_url=base_url, viewport=DESKTOP, locale="en-GB")
        self.context.set_default_timeout(30_000)
        self.violations: list[dict] = []
        self.console_errors: list[str] = []
        self.policies: dict[str, str] = {}  # document path -> Content-Security-Policy
        self.context.expose_binding(
            "reportCspViolation", lambda _source, violation: self.violations.append(violation)
        )
        self.context.add_init_script(REPORT_VIOLATIONS)
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.console_errors.append(f"pageerror: {error}"))
        self.page.on("response", self._response)

    def _console(self, message) -> None:
        if message.type == "error":
            self.console_errors.append(f"{message.location.get('url')}: {message.text}")

    def _response(self, response) -> None:
        if response.request.resource_type == "document":
            path = "/" + response.url.split("://", 1)[1].split("/", 1)[1].split("?")[0]
            self.policies[path] = response.headers.get("content-security-policy", "")

    def open(self, path: str) -> None:
        self.page.goto(path)
        self.page.wait_for_load_state("networkidle")

    def sign_in(self, username: str) -> None:
        """Through the login form (password = username); the sidebar is rendered by React."""
        self.open("/admin/login/")
        self.page.fill("#id_username", username)
        self.page.fill("#id_password", username)
        self.page.click("button[type=submit]")
        self.page.wait_for_url("**/admin/")
        self.page.wait_for_selector("#wagtail-sidebar:not(.sidebar-loading) a[href='/admin/']")

    def assert_clean(self) -> None:
        assert not self.violations, f"CSP violations: {self.violations}"
        assert not self.console_errors, f"console errors: {self.console_errors}"
        admin_paths = [path for path in self.policies if path.startswith("/admin/")]
        assert admin_paths, self.policies
        for path in admin_paths:  # what was tested is the admin's policy
            assert "script-src 'self' 'unsafe-inline' 'unsafe-eval'" in self.policies[path], path


@pytest.fixture
def digest(seeded_live_server) -> DigestPage:
    """A seeded digest given a rich-text paragraph, so that its form mounts Draftail."""
    page = DigestPage.objects.get(locale__language_code="en", short_name="ByteScale")
    page.body = [("paragraph", RichText("<p>Rings are sized per sequence.</p>"))]
    page.save_revision().publish()
    return page


@pytest.fixture
def signed_in(browser, seeded_live_server, django_user_model):
    """`signed_in(group)`: a session of a new user of that group (Editors or Translators)."""
    groups = ensure_roles()
    sessions = []

    def sign_in(group: str) -> AdminSession:
        username = f"csp-{group.lower()}"
        user = django_user_model.objects.create_user(username, password=username)
        user.groups.add(groups[group])
        session = AdminSession(browser, seeded_live_server.url)
        sessions.append(session)
        session.sign_in(username)
        return session

    yield sign_in
    for session in sessions:
        session.context.close()


def test_an_editor_s_screens_work_under_the_admin_policy(signed_in, digest):
    admin = signed_in(EDITORS)
    page = admin.page
    topic = digest.get_parent()

    # The sidebar's explorer (React) fetches the tree from the admin API and lists it.
    page.get_by_role("button", name="Pages").click()
    page.get_by_role("link", name=topic.get_parent().title, exact=True).wait_for()

    admin.open(f"/admin/pages/{topic.pk}/")
    page.get_by_role("link", name=digest.title, exact=True).wait_for()

    admin.open(f"/admin/pages/{digest.pk}/edit/")
    draftail = page.locator(".public-DraftEditor-content")  # Draftail, mounted by JS
    draftail.get_by_text("Rings are sized per sequence.").wait_for()
    page.locator("[data-side-panel-toggle='preview']").click()
    # wagtail-headless-preview's page in the panel frames the reader's /preview/ route.
    preview = page.frame_locator("#w-preview-iframe").frame_locator("iframe")
    preview.locator(".preview-banner").wait_for()  # the reader rendered the draft
    assert preview.locator("h1").inner_text() == digest.title

    admin.open(f"/admin/snippets/papers/paper/edit/{digest.paper_id}/")
    rows = page.locator("[id^='inline_child_authors-']:not([id$='-empty'])")
    before = rows.count()
    page.get_by_role("button", name="Add author").first.click()
    rows.nth(before).wait_for()  # InlinePanel built the new row from its template

    admin.assert_clean()
    assert f"/admin/pages/{digest.pk}/edit/preview/" in admin.policies  # the panel's frame page
    readers = [path for path in admin.policies if path.startswith("/preview/")]
    assert readers, admin.policies
    for path in readers:  # the reader inside it keeps the strict public policy
        assert admin.policies[path] and "unsafe" not in admin.policies[path], path


def test_a_translator_s_translation_editor_works_under_the_admin_policy(signed_in, digest):
    admin = signed_in(TRANSLATORS)
    zh_digest = digest.get_translation(Locale.objects.get(language_code="zh-hant"))

    admin.open(f"/admin/pages/{zh_digest.pk}/edit/")  # wagtail-localize's editor (React)
    editor = admin.page.locator(".js-translation-editor")
    editor.get_by_text(digest.title, exact=True).first.wait_for()  # the source segment

    admin.assert_clean()
