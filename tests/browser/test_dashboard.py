"""The admin dashboard's panels (cms/ops/charts.py and the apps' panels) in a real browser.

Editors, translators and an admin open the dashboard in English and in Chinese, at a phone's
390 px and a desktop's 1280 px: each sees their panels, in their language, with nothing wider
than the screen and nothing fetched from another host; axe reports no violation of any impact,
with every chart's table opened. Screenshots are kept in test-artifacts/dashboard/.
"""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone
from wagtail.users.models import UserProfile

from cms.digests.models import DigestPage
from cms.papers.models import PaperNotice
from cms.translation.policy.roles import EDITORS, TRANSLATORS
from cms.webhooks.models import Delivery, Endpoint
from sync.models import PaperChange, PaperSyncState, SourceRequests, SyncError, SyncRun
from tests.support.factories import PUBLISHED, DigestPageFactory
from tests.support.users import member

from .conftest import DESKTOP, PHONE
from .test_translation_workflow import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PANELS = {
    "editor": {"papers-needing-a-person", "translation-coverage", "sync-activity"},
    "translator": {"pages-waiting-for-translation", "translation-coverage"},
    "admin": {
        "papers-needing-a-person",
        "pages-waiting-for-translation",
        "translation-coverage",
        "sync-activity",
        "webhook-deliveries",
    },
}
OURS = {name for names in PANELS.values() for name in names}
HEADINGS = {
    "en": ["Translation coverage", "Metadata sync: the last 30 days", "Papers that need a person"],
    "zh-hant": ["翻譯涵蓋情形", "中繼資料同步：最近 30 天", "需要人工處理的論文"],  # noqa: RUF001
}


@pytest.fixture
def site_with_activity(seeded_live_server):
    """The seed, with something in every panel: an untranslated digest, a sync run, webhook
    deliveries, an update notice and a sync error; and the three logins."""
    english = DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")
    DigestPageFactory(
        parent=english.get_parent(), title="Rail fabrics", slug="rail-fabrics", revision=PUBLISHED
    )
    paper = english.paper
    run = SyncRun.objects.create(
        kind=SyncRun.Kind.ALL,
        status=SyncRun.Status.FINISHED,
        papers_total=53,
        papers_changed=1,
        error_count=1,
        finished_at=timezone.now(),
    )
    for source, requests in (
        ("dblp", 12),
        ("crossref", 40),
        ("openalex", 9),
        ("semanticscholar", 2),
    ):
        SourceRequests.objects.create(run=run, source=source, requests=requests)
    PaperChange.objects.create(run=run, paper=paper, field="abstract", source="crossref")
    SyncError.objects.create(run=run, paper=paper, source="openalex", message="HTTP 400")
    PaperSyncState.objects.create(
        paper=paper, run=run, failed_attempts=1, last_error="OpenAlex answered HTTP 400."
    )
    PaperNotice.objects.create(
        paper=paper,
        notice_doi="10.5555/correction.1",
        update_type="correction",
        label="Correction",
        source=PaperNotice.Source.PUBLISHER,
    )
    endpoint = Endpoint.objects.create(
        url="https://front-end.example/hooks", events=["page.published"], description="Front end"
    )
    for status, attempts, duration in (
        ("succeeded", 1, 80),
        ("succeeded", 1, 120),
        ("pending", 2, None),
        ("failed", 1, 30),
    ):
        Delivery.objects.create(
            endpoint=endpoint,
            event_type="page.published",
            payload={},
            status=status,
            attempts=attempts,
            duration_ms=duration,
        )
    Delivery.objects.filter(status="failed").update(created_at=timezone.now() - timedelta(days=2))
    member(EDITORS, "editor", password="editor")
    member(TRANSLATORS, "translator", password="translator")
    get_user_model().objects.create_superuser("admin", "admin@example.com", "admin")
    return seeded_live_server


def whole_page(page, viewport: dict) -> None:
    """As tall as the dashboard: the admin scrolls inside its layout, not the document, so a
    full-page screenshot would stop at the window's height."""
    height = page.evaluate("document.querySelector('main').scrollHeight")
    page.set_viewport_size({"width": viewport["width"], "height": max(viewport["height"], height)})


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
@pytest.mark.parametrize("language", ["en", "zh-hant"])
@pytest.mark.parametrize("role", ["editor", "translator", "admin"])
def test_each_role_reads_its_dashboard(
    browser, site_with_activity, role, language, viewport, axe_violations, screenshot
):
    user = get_user_model().objects.get(username=role)
    profile = UserProfile.get_for_user(user)
    profile.preferred_language = language
    profile.save()
    context = browser.new_context(base_url=site_with_activity.url, viewport=viewport)
    context.set_default_timeout(30_000)
    elsewhere: list[str] = []
    context.on(
        "request",
        lambda request: (
            None
            if request.url.startswith((site_with_activity.url, "data:"))
            else elsewhere.append(request.url)
        ),
    )
    page = context.new_page()
    try:
        log_in(page, role)
        page.wait_for_load_state("networkidle")
        shown = set(
            page.eval_on_selector_all(
                "section.w-panel[id$='-section']",
                "sections => sections.map((s) => s.id.replace(/-section$/, ''))",
            )
        )
        assert shown & OURS == PANELS[role]
        text = page.locator("main").inner_text()
        other = "en" if language == "zh-hant" else "zh-hant"
        for heading in HEADINGS[language]:
            assert (heading in text) == (role != "translator" or heading == HEADINGS[language][0])
        for heading in HEADINGS[other]:
            assert heading not in text
        name = f"{role}-{language}-{viewport['width']}"
        whole_page(page, viewport)
        screenshot(page, "dashboard", name)
        # Nothing wider than the screen.
        assert page.evaluate(
            "document.scrollingElement.scrollWidth <= document.documentElement.clientWidth"
        )
        # Every chart's table opened: axe reads them too.
        page.eval_on_selector_all(
            "details.w-chart__data", "all => all.forEach((d) => d.open = true)"
        )
        assert page.locator("details.w-chart__data[open] table").count() >= 1
        if viewport == DESKTOP:
            whole_page(page, viewport)
            screenshot(page, "dashboard", f"{name}-tables")
        assert axe_violations(page, impacts=None) == []
        assert elsewhere == []
    finally:
        context.close()
