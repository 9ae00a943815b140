"""A retraction switched on upstream reaches every reader after one more sync (issue 42), end to
end: the real sync against the local stand-in, then the API, the reader in both languages, both
Atom feeds and all four citation formats, as their users get them; switched off, it is gone."""

import json

import feedparser
import pytest
import requests
import rispy
from django.utils import translation
from django.utils.translation import gettext as _

from cms.digests.models import DigestPage
from sync import tasks
from tests.papers.test_citations import parse_bibtex
from tests.support.upstream import serving_upstream
from tests.sync.recorded import recorded_catalog, recorded_notices

pytestmark = pytest.mark.browser

BYTESCALE = "10.1145/3718958.3750471"
RETRACTION_URL = "https://doi.org/10.1145/3718958.3799101"
BANNER = {"en": "This paper has been retracted.", "zh-hant": "這篇論文已被撤回。"}
FEEDS = {"en": "/feed.atom", "zh-hant": "/zh-hant/feed.atom"}


@pytest.fixture
def upstream(settings):
    yield from serving_upstream(recorded_catalog(), settings)


def sync_all() -> None:
    assert tasks.sync_all.delay().get().startswith("started run")


def get_json(base: str, path: str) -> dict:
    response = requests.get(base + path, timeout=30)
    assert response.status_code == 200, response.text
    return response.json()


def digests() -> dict[str, DigestPage]:
    return {
        page.locale.language_code: page
        for page in DigestPage.objects.filter(short_name="ByteScale").select_related("locale")
    }


def paper_in_the_api(base: str) -> list[dict]:
    """ByteScale's paper as /api/v2/papers/ and each language's digest show it."""
    pages = digests()
    paper_id = pages["en"].paper_id
    shown = [get_json(base, f"/api/v2/papers/{paper_id}/")]
    shown += [get_json(base, f"/api/v2/pages/{page.pk}/")["paper"] for page in pages.values()]
    listing = get_json(base, "/api/v2/papers/?limit=100&fields=updates")["items"]
    shown += [item for item in listing if item["id"] == paper_id]
    assert len(shown) == 4
    return shown


def feed_entry(base: str, language: str):
    parsed = feedparser.parse(requests.get(base + FEEDS[language], timeout=30).content)
    (entry,) = [e for e in parsed.entries if e.link.endswith(digests()[language].url)]
    return entry


def retracted_category(language: str) -> str:
    with translation.override(language):
        return _("Retracted")


def citations(base: str) -> dict[str, str | None]:
    cite = f"{base}/api/v2/papers/{digests()['en'].paper_id}/cite/"
    get = lambda **params: requests.get(cite, params=params, timeout=30).text  # noqa: E731
    entry = parse_bibtex(get(format="bibtex")).entries[0]
    (ris,) = rispy.loads(get(format="ris"))
    (item,) = json.loads(get(format="csl-json"))
    return {
        "bibtex": entry.fields_dict["note"].value if "note" in entry.fields_dict else None,
        "ris": "; ".join(ris.get("notes", [])) or None,
        "csl-json": item.get("note"),
        "text": get(format="text", style="acm"),
    }


def banner_text(page, base: str, language: str) -> str | None:
    page.goto(base + digests()[language].url)
    page.wait_for_selector("main[aria-busy=false] .digest")
    banner = page.locator(".notice-banner")
    if not banner.count():
        return None
    link = banner.get_by_role("link").first
    assert link.get_attribute("href") == RETRACTION_URL
    return banner.locator(".notice-banner__title").inner_text()


def test_a_retraction_upstream_reaches_every_reader_after_one_more_sync(
    seeded_live_server, upstream, page, screenshot
):
    base = seeded_live_server.url
    sync_all()
    for paper in paper_in_the_api(base):
        assert (paper["retracted"], paper["updates"]) == (False, [])
    assert all(banner_text(page, base, language) is None for language in BANNER)

    upstream.catalog.set_notices(BYTESCALE, recorded_notices(BYTESCALE))
    sync_all()

    for paper in paper_in_the_api(base):
        assert paper["retracted"] is True
        assert {(u["type"], u["source"], u["doi"]) for u in paper["updates"]} == {
            ("retraction", "publisher", "10.1145/3718958.3799101"),
            ("retraction", "retraction-watch", "10.1145/3718958.3799101"),
        }
    for language, title in BANNER.items():
        assert banner_text(page, base, language) == title
        screenshot(page, "reader", f"digest-retracted-after-sync-{language}")
    for language in FEEDS:
        entry = feed_entry(base, language)
        assert retracted_category(language) in {tag.term for tag in entry.get("tags", [])}
        assert RETRACTION_URL in entry.summary
    cited = citations(base)
    assert all(RETRACTION_URL in (cited[name] or "") for name in ("bibtex", "ris", "csl-json"))
    assert "Retracted" in cited["text"] and RETRACTION_URL in cited["text"]

    upstream.catalog.set_notices(BYTESCALE, [])
    sync_all()
    for paper in paper_in_the_api(base):
        assert (paper["retracted"], paper["updates"]) == (False, [])
    assert banner_text(page, base, "zh-hant") is None
    assert "Retracted" not in {tag.term for tag in feed_entry(base, "en").get("tags", [])}
    assert citations(base)["csl-json"] is None
