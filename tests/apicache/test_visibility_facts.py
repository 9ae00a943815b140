"""The visibility facts (view restrictions, the site, hidden branches) and the languages pages
are translated into are cached under their own version: a paper write leaves them, every write
that can change which pages are public, or which languages are translated into, does not.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from wagtail.models import Locale, PageViewRestriction
from wagtail_localize.models import Translation

from cms.api.visibility import translation_target_languages
from cms.digests.models import DigestPage

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("cached_api")]

FACT_TABLES = (
    "wagtailcore_pageviewrestriction",
    "wagtailcore_site",
    "wagtail_localize_translation",  # the target languages
)


def digest() -> DigestPage:
    return DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")


def get_detail(client, page) -> tuple[int, dict | None, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"/api/v2/pages/{page.pk}/")
    body = response.json() if response.status_code == 200 else None
    return response.status_code, body, [query["sql"] for query in captured]


def reads_facts(statements: list[str]) -> bool:
    return any(table in sql for sql in statements for table in FACT_TABLES)


def test_a_paper_write_keeps_the_facts(client, django_capture_on_commit_callbacks):
    page = digest()
    assert reads_facts(get_detail(client, page)[2])
    with django_capture_on_commit_callbacks(execute=True):
        paper = page.paper
        paper.title = "A paper title edited after the first read"
        paper.save()
    status, body, statements = get_detail(client, page)
    assert status == 200 and body["paper"]["title"] == paper.title  # a fresh answer
    assert statements and not reads_facts(statements)


def test_a_privacy_write_reads_them_again(client, django_capture_on_commit_callbacks):
    page = digest()
    assert get_detail(client, page)[0] == 200
    with django_capture_on_commit_callbacks(execute=True):
        PageViewRestriction.objects.create(page=page, restriction_type=PageViewRestriction.LOGIN)
    status, _body, statements = get_detail(client, page)
    assert status == 404 and reads_facts(statements)


def test_a_new_target_language_is_read_again(client, django_capture_on_commit_callbacks):
    assert translation_target_languages() == {"zh-hant"}
    source = Translation.objects.first().source
    with django_capture_on_commit_callbacks(execute=True):
        Translation.objects.create(
            source=source, target_locale=Locale.objects.get(language_code="en")
        )
    assert translation_target_languages() == {"zh-hant", "en"}


def test_without_a_response_cache_they_are_read_every_time(client, settings):
    settings.API_RESPONSE_CACHE_SECONDS = 0
    page = digest()
    get_detail(client, page)
    assert reads_facts(get_detail(client, page)[2])
