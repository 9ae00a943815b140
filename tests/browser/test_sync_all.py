"""Issue 46, item 2: an editor syncs all papers from the Papers listing, on a phone, in either
admin language; the run's screen shows its progress and then its outcome without a reload, and
its changes read as text ("Kun Qian, Yongqing Xi, ..."), not as Python values.

The sources are the local stand-in (tests/conftest.py `lookup_upstream`), held while the test
looks at the run in progress; without a broker (as under `make run`) the run's batches run in
the background of the live server (cms/ops/background.py)."""

import re

import pytest
from wagtail.users.models import UserProfile

from cms.papers.models import Paper
from cms.translation.policy.roles import EDITORS
from sync.models import PaperChange, SyncRun
from tests.browser.conftest import PHONE
from tests.support.upstream import held_upstream
from tests.support.users import member

from .test_translation_workflow import log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
SCREENSHOTS = "sync_all"
TEXT = {
    "en": {
        "sync_all": "Sync all papers",
        "progress": "0 of {n} papers done",
        "finished": "Finished",
        "authors": "Authors",
    },
    "zh-hant": {
        "sync_all": "同步全部論文",
        "progress": "已處理 0／{n} 篇論文",  # noqa: RUF001
        "finished": "已完成",
        "authors": "作者",
    },
}


@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_an_editor_syncs_all_papers_and_watches_the_run_end_without_a_reload(
    browser, seeded_live_server, lookup_upstream, settings, screenshot, language
):
    settings.SYNC_TIMEOUT = (5.0, 30.0)  # held answers must not time out
    text = TEXT[language]
    editor = member(EDITORS, "editor", password="editor")
    profile = UserProfile.get_for_user(editor)
    profile.preferred_language = language
    profile.save()
    asked, release = held_upstream(lookup_upstream)
    context = browser.new_context(base_url=seeded_live_server.url, viewport=PHONE, locale="en-US")
    context.set_default_timeout(30_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    try:
        log_in(page, "editor")
        page.goto("/admin/snippets/papers/paper/")
        page.get_by_role("link", name=text["sync_all"]).click()
        screenshot(page, SCREENSHOTS, f"01-confirm-{language}-390")
        page.locator("button[data-sync-all]").click()
        page.wait_for_url(re.compile(r"/admin/sync/runs/\d+/$"))
        run = SyncRun.objects.get()
        assert run.kind == SyncRun.Kind.ALL and run.trigger == "admin:editor"
        page.evaluate("window.stillTheSamePage = true")  # gone if the page reloads

        progress = page.locator("[data-sync-progress]")
        assert progress.inner_text() == text["progress"].format(n=Paper.objects.count())
        assert asked.wait(20), "the sync never asked the sources"
        screenshot(page, SCREENSHOTS, f"02-running-{language}-390")
        release.set()

        page.locator("[data-sync-live-ended]").wait_for(state="attached", timeout=240_000)
        screenshot(page, SCREENSHOTS, f"03-finished-{language}-390")
        assert page.evaluate("window.stillTheSamePage") is True
        run.refresh_from_db()
        assert run.status == SyncRun.Status.FINISHED
        status = page.locator("[data-sync-live] table.listing tbody tr").first.locator("td")
        assert status.inner_text() == text["finished"]
        assert progress.count() == 0
        change = PaperChange.objects.filter(run=run, field="authors").order_by("pk").first()
        row = page.locator("tr[data-change]", has_text=change.paper.title).filter(
            has_text=text["authors"]
        )
        names = ", ".join(author["name"] for author in change.new)
        assert names[:250] in row.inner_text()
        body = page.locator("body").inner_text()
        assert "[{" not in body and "'name'" not in body
    finally:
        release.set()
        context.close()
    assert not errors, f"JavaScript errors in the page: {errors}"
