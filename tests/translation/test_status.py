"""Translation status in the report and the API matches reality at every step of the workflow."""

import pytest
from django.contrib.auth.models import Permission
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from wagtail.models import Locale
from wagtail_localize.models import StringTranslation, Translation

from cms.api.visibility import translation_target_languages
from cms.digests.models import DigestPage
from cms.translation.status.statuses import translation_status
from cms.translation.workflow.prefill import publish_translation

pytestmark = pytest.mark.django_db


def api_status(client, page):
    response = client.get(f"/api/v2/pages/{page.pk}/")
    assert response.status_code == 200
    return response.json()["translation_status"]


def report_row(client, page):
    response = client.get(reverse("translation_status_report"))
    assert response.status_code == 200
    rows = {row.pk: row for row in response.context["object_list"]}
    return rows[page.pk].translation_status, response.content.decode()


def test_status_follows_each_step_of_the_workflow(
    client, translator, digest_en, digest_zh, django_capture_on_commit_callbacks
):
    """Each step commits (its on-commit hooks run), as in the admin, so API caches see it."""
    source_page = DigestPage.objects.get(pk=digest_en.pk)
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )
    client.force_login(translator)

    # 1. As imported: complete and current.
    status = translation_status(digest_zh)
    assert (status.state, status.percent_translated, status.out_of_date) == (
        "up_to_date",
        100,
        False,
    )
    assert status.source_revision_id == status.synced_revision_id == source_page.live_revision_id
    assert status.translated_by == "seed import"
    api = api_status(client, digest_zh)
    assert api["state"] == "up_to_date"
    assert api["segments"] == {"total": 2, "translated": 2, "machine": 0}
    assert api_status(client, digest_en) is None  # the English page is the source

    # 2. The editor publishes a new English summary: the translation is out of date.
    digest_en.summary = "A rewritten summary."
    revision = digest_en.save_revision()
    with django_capture_on_commit_callbacks(execute=True):
        revision.publish()
    status = translation_status(digest_zh)
    assert status.state == "out_of_date" and status.out_of_date
    assert status.source_revision_id == revision.pk != status.synced_revision_id
    row, html = report_row(client, digest_zh)
    assert row == status
    assert "Out of date" in html
    assert reverse("wagtail_localize:update_translations", args=[translation.source_id]) in html
    assert api_status(client, digest_zh)["out_of_date"] is True

    # 3. The translator syncs: the title keeps its translation, only the summary needs work.
    with django_capture_on_commit_callbacks(execute=True):
        translation.source.update_from_db()
    status = translation_status(digest_zh)
    assert (status.state, status.percent_translated, status.out_of_date) == (
        "incomplete",
        50,
        False,
    )
    assert status.synced_revision_id == revision.pk
    synced = api_status(client, digest_zh)
    assert synced["segments"] == {"total": 2, "translated": 1, "machine": 0}
    assert synced["state"] == "out_of_date"  # the live page still predates the new summary

    # 4. The translator translates the changed segment: complete, not yet published.
    segment = translation.source.stringsegment_set.get(context__path="summary")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.put(
            reverse("wagtail_localize:edit_string_translation", args=[translation.pk, segment.pk]),
            data="value=%E6%94%B9%E5%AF%AB%E7%9A%84%E6%91%98%E8%A6%81%E3%80%82",
            content_type="application/x-www-form-urlencoded",
        )
    assert response.status_code == 201
    status = translation_status(digest_zh)
    assert (status.state, status.percent_translated) == ("unpublished", 100)
    assert status.translated_by == "translator"
    # The live page has not changed, and neither has its public status; no staff names.
    assert api_status(client, digest_zh) == synced
    assert "translated_by" not in synced

    # 5. Published: up to date again, with a new translated revision.
    before = status.translated_revision_id
    with django_capture_on_commit_callbacks(execute=True):
        publish_translation(translation, user=translator)
    digest_zh.refresh_from_db()
    status = translation_status(digest_zh)
    assert status.state == "up_to_date"
    assert status.translated_revision_id == digest_zh.live_revision_id != before
    row, _html = report_row(client, digest_zh)
    assert row.state == "up_to_date"
    published = api_status(client, digest_zh)
    assert (published["state"], published["segments"]["translated"]) == ("up_to_date", 2)
    assert published["translated_at"].startswith(digest_zh.last_published_at.date().isoformat())
    assert DigestPage.objects.get(pk=digest_zh.pk).summary == "改寫的摘要。"


def test_machine_translated_pages_are_flagged(digest_en, digest_zh):
    StringTranslation.objects.filter(
        locale=digest_zh.locale, context__object_id=digest_en.translation_key
    ).update(translation_type="machine", tool_name="DeepL", last_translated_by=None)
    status = translation_status(digest_zh)
    assert (status.state, status.machine_segments, status.translated_by) == (
        "needs_review",
        2,
        "DeepL",
    )


def test_a_translator_with_a_name_is_shown_by_name_with_the_time(
    client, digest_en, digest_zh, django_user_model
):
    """The latest translated string names its translator in the admin's report, with its time
    (read back from the one subquery that carries both); the public API names no one."""
    person = django_user_model.objects.create_user(
        "lin", first_name="Mei", last_name="Lin", password="x"
    )
    strings = StringTranslation.objects.filter(
        locale=digest_zh.locale, context__object_id=digest_en.translation_key
    )
    latest = strings.order_by("-updated_at", "-pk").first()
    strings.filter(pk=latest.pk).update(last_translated_by=person)
    status = translation_status(digest_zh)
    assert status.translated_by == "Mei Lin"  # in the admin's report
    assert status.translated_at == latest.updated_at
    assert status.translated_at.utcoffset().total_seconds() == 0
    body = client.get(f"/api/v2/pages/{digest_zh.pk}/").content.decode()
    assert "Mei" not in body and "lin" not in body.split('"translation_status"')[1].lower()


def status_queries(client, limit: int, fields: str, locale: str = "zh-hant") -> int:
    params = {"type": "digests.DigestPage", "locale": locale, "limit": limit, "fields": fields}
    with CaptureQueriesContext(connection) as captured:
        response = client.get("/api/v2/pages/", params)
    assert response.status_code == 200
    items = response.json()["items"]
    assert len(items) == limit
    if fields == "translation_status" and locale == "en":
        assert {item["translation_status"] for item in items} == {None}
    return len(captured)


def test_a_listing_of_the_source_language_needs_no_status_query(client, uncached_api):
    """No query for the statuses, whatever the limit: the target languages come with the
    visibility facts (cms.api.visibility), which every request reads anyway."""
    status_queries(client, 1, "translation_status", "en")  # warm Wagtail's site root paths
    for limit in (3, 20):
        with_status = status_queries(client, limit, "translation_status", "en")
        assert with_status == status_queries(client, limit, "-translation_status", "en")


def detail_queries(client, page, fields: str) -> tuple[list[str], dict]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"/api/v2/pages/{page.pk}/", {"fields": fields})
    assert response.status_code == 200
    return [query["sql"] for query in captured], response.json()


def test_a_detail_of_a_source_page_needs_no_status_query(client, settings, digest_en, digest_zh):
    """An English page needs no query for its status (the target languages come with the
    visibility facts, no segment counts); a translation gets its status."""
    settings.API_RESPONSE_CACHE_SECONDS = 0  # count the view's queries on every request
    detail_queries(client, digest_en, "translation_status")  # warm Wagtail's site root paths
    with_status, body = detail_queries(client, digest_en, "translation_status")
    assert body["translation_status"] is None
    assert len(with_status) == len(detail_queries(client, digest_en, "-translation_status")[0])
    assert not [sql for sql in with_status if "wagtail_localize_stringtranslation" in sql]
    translated, body = detail_queries(client, digest_zh, "translation_status")
    assert body["translation_status"]["source_page_id"] == digest_en.pk
    assert [sql for sql in translated if "wagtail_localize_stringtranslation" in sql]


def test_target_languages_are_read_again_when_a_translation_is_created(uncached_api):
    assert translation_target_languages() == {"zh-hant"}
    source = Translation.objects.first().source
    english = Locale.objects.get(language_code="en")
    Translation.objects.create(source=source, target_locale=english)
    assert translation_target_languages() == {"zh-hant", "en"}


def test_translation_status_costs_the_same_queries_for_any_limit(client):
    """The field is batched: its extra queries do not grow with the page of results."""
    status_queries(client, 1, "translation_status")  # warm Wagtail's site root paths

    def queries(limit, fields):
        params = {"type": "digests.DigestPage", "locale": "zh-hant", "limit": limit}
        with CaptureQueriesContext(connection) as captured:
            response = client.get("/api/v2/pages/", {**params, "fields": fields})
        assert response.status_code == 200
        items = response.json()["items"]
        assert len(items) == limit
        if fields == "translation_status":
            assert {item["translation_status"]["state"] for item in items} == {"up_to_date"}
        return len(captured)

    def extra(limit):
        return queries(limit, "translation_status") - queries(limit, "-translation_status")

    assert extra(3) == extra(20) <= 2  # the target languages, the statuses


def test_report_is_for_translators_and_editors_only(client, django_user_model):
    nobody = django_user_model.objects.create_user("nobody", password="pw")
    nobody.user_permissions.add(Permission.objects.get(codename="access_admin"))
    client.force_login(nobody)
    assert client.get(reverse("translation_status_report")).status_code in {302, 403}


def test_report_lists_every_translated_digest_and_topic(client, editor):
    client.force_login(editor)
    response = client.get(reverse("translation_status_report"), {"export": "csv"})
    assert response.status_code == 200
    lines = response.getvalue().decode().strip().splitlines()
    assert len(lines) == 1 + 53 + 11
    assert lines[0].startswith("Translated page,Status,Translated (%)")


@pytest.mark.parametrize(("role", "links"), [("editor", False), ("translator", True)])
def test_the_report_links_a_translation_only_for_those_who_may_edit_it(
    client, request, digest_zh, role, links
):
    client.force_login(request.getfixturevalue(role))
    html = client.get(reverse("translation_status_report"), {"p": 1}).content.decode()
    assert digest_zh.title in html
    assert (reverse("wagtailadmin_pages:edit", args=[digest_zh.pk]) in html) is links


def test_dashboard_panel_lists_pages_waiting_for_the_translator(client, translator, digest_en):
    digest_en.summary = "Changed again."
    digest_en.save_revision().publish()
    client.force_login(translator)
    html = client.get(reverse("wagtailadmin_home")).content.decode()
    assert "Pages waiting for translation" in html
    assert 'data-translation-state="out_of_date"' in html
    assert html.count("data-translation-state=") == 1


def test_cached_api_responses_follow_a_sync(
    client, digest_en, digest_zh, django_capture_on_commit_callbacks
):
    """Anonymous API responses are cached; syncing, which publishes nothing, still shows."""
    digest_en.summary = "Yet another summary."
    digest_en.save_revision().publish()
    assert api_status(client, digest_zh)["state"] == "out_of_date"
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )
    with django_capture_on_commit_callbacks(execute=True):
        translation.source.update_from_db()
    synced = api_status(client, digest_zh)
    assert synced["segments"] == {"total": 2, "translated": 1, "machine": 0}
    assert synced["state"] == "out_of_date"  # until the translation is published again


def test_the_sync_button_returns_to_the_filtered_report_it_was_pressed_on(
    client, translator, digest_en, digest_zh
):
    """The report's own query (filters, page) is kept whole in `next`, not cut at its `&`."""
    from urllib.parse import parse_qs, urlsplit

    from bs4 import BeautifulSoup

    digest_en.summary = "A rewritten summary."
    digest_en.save_revision().publish()
    client.force_login(translator)
    report = reverse("translation_status_report") + "?locale=zh-hant&ordering=title"
    html = client.get(report).content.decode()
    sync_path = reverse("wagtail_localize:update_translations", args=[1]).rsplit("/1/", 1)[0]
    links = [a["href"] for a in BeautifulSoup(html, "html.parser").find_all("a", href=True)]
    [sync] = [href for href in links if href.startswith(sync_path)]
    assert parse_qs(urlsplit(sync).query) == {"next": [report]}
