"""Every API representation of a paper says when it was retracted or corrected (`retracted`,
`updates`) and names its version of record and preprint: the papers endpoint (listing and
detail) and the paper nested in digests, in both languages; reads stay batched."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cms.papers.models import Paper
from tests.support.content import DIGEST_TYPE, PAGES_URL, digest, translation
from tests.support.notices import (
    CONCERN,
    CORRECTION,
    OPENALEX_FLAG,
    RETRACTION,
    add_notice,
    as_api,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uncached_api")]

PAPERS_URL = "/api/v2/papers/"
LANGUAGES = ("en", "zh-hant")


def get_json(client, path, **params):
    response = client.get(path, params)
    assert response.status_code == 200, response.content
    return response.json()


def every_representation(client, paper_id: int) -> list[tuple[str, dict]]:
    """The paper as each endpoint shows it: papers listing and detail, digests listed and in
    detail, in both languages."""
    shown = []
    listing = get_json(client, PAPERS_URL, fields="*", limit=100)["items"]
    shown.append(("papers listing", next(item for item in listing if item["id"] == paper_id)))
    shown.append(("papers detail", get_json(client, f"{PAPERS_URL}{paper_id}/")))
    for language in LANGUAGES:
        digests = get_json(
            client, PAGES_URL, type=DIGEST_TYPE, locale=language, fields="*", limit=100
        )["items"]
        item = next(item for item in digests if item["paper"]["id"] == paper_id)
        shown.append((f"digests listing {language}", item["paper"]))
        detail = get_json(client, f"{PAGES_URL}{item['id']}/")
        shown.append((f"digest detail {language}", detail["paper"]))
    return shown


def test_papers_without_notices_say_so_everywhere(client):
    papers = get_json(client, PAPERS_URL, fields="*", limit=100)["items"]
    assert len(papers) == Paper.objects.count()
    assert all(p["retracted"] is False and p["updates"] == [] for p in papers)
    # The listing's default fields say it too, and the nested paper of every digest.
    assert all(p["retracted"] is False for p in get_json(client, PAPERS_URL, limit=100)["items"])
    for language in LANGUAGES:
        digests = get_json(
            client, PAGES_URL, type=DIGEST_TYPE, locale=language, fields="*", limit=100
        )["items"]
        assert digests
        assert all(d["paper"]["retracted"] is False for d in digests)
        assert all(d["paper"]["updates"] == [] for d in digests)
    odin = digest("Odin").paper
    for where, paper in every_representation(client, odin.pk):
        assert (paper["retracted"], paper["updates"]) == (False, []), where


def test_a_retraction_from_retraction_watch_shows_everywhere_oldest_notice_first(client):
    paper = digest("Odin").paper
    add_notice(paper, RETRACTION)
    add_notice(paper, OPENALEX_FLAG)  # undated: last, on either database
    add_notice(paper, CORRECTION)  # older than the retraction: first

    expected = [as_api(CORRECTION), as_api(RETRACTION), as_api(OPENALEX_FLAG)]
    assert expected[1] == {
        "type": "retraction",
        "doi": "10.1016/s0140-6736(10)60175-4",
        "date": "2010-02-06",
        "source": "retraction-watch",
        "label": "Retraction",
    }
    for where, shown in every_representation(client, paper.pk):
        assert shown["retracted"] is True, where
        assert shown["updates"] == expected, where
    # Other papers are untouched.
    others = get_json(client, PAPERS_URL, limit=100)["items"]
    assert [p["id"] for p in others if p["retracted"]] == [paper.pk]


@pytest.mark.parametrize("notice", [CORRECTION, CONCERN], ids=["correction", "concern"])
def test_a_correction_or_an_expression_of_concern_is_an_update_not_a_retraction(client, notice):
    paper = digest("Odin").paper
    add_notice(paper, notice)
    for where, shown in every_representation(client, paper.pk):
        assert shown["retracted"] is False, where
        assert shown["updates"] == [as_api(notice)], where


@pytest.mark.parametrize("update_type", ["withdrawal", "partial_retraction", "removal"])
def test_a_withdrawal_counts_as_a_retraction(client, update_type):
    paper = digest("Odin").paper
    add_notice(paper, RETRACTION, update_type=update_type, label=update_type.title())
    assert get_json(client, f"{PAPERS_URL}{paper.pk}/")["retracted"] is True


def test_nested_fields_pick_the_new_keys(client):
    page = digest("Odin")
    add_notice(page.paper, RETRACTION)
    detail = get_json(client, f"{PAGES_URL}{page.pk}/", fields="paper(retracted,updates)")
    assert detail["paper"] == {
        "id": page.paper_id,
        "retracted": True,
        "updates": [as_api(RETRACTION)],
    }


def test_version_of_record_and_preprint(client):
    paper = digest("Odin").paper
    paper.doi, paper.preprint_doi, paper.arxiv_id = "10.1145/3.4", "10.48550/arxiv.2601.00009", ""
    paper.save()
    shown = get_json(client, f"{PAPERS_URL}{paper.pk}/")
    assert shown["version_of_record"] == {
        "doi": "10.1145/3.4",
        "url": "https://doi.org/10.1145/3.4",
    }
    assert shown["preprint"] == {
        "doi": "10.48550/arxiv.2601.00009",
        "arxiv_id": None,
        "url": "https://doi.org/10.48550/arxiv.2601.00009",
    }
    assert shown["ids"]["preprint_doi"] == "10.48550/arxiv.2601.00009"

    # Known only as a preprint (added by arXiv id): no version of record yet.
    paper.doi, paper.preprint_doi, paper.arxiv_id = "", "", "2601.00009"
    paper.save()
    for language in LANGUAGES:
        nested = get_json(client, f"{PAGES_URL}{translation(digest('Odin'), language).pk}/")
        assert nested["paper"]["version_of_record"] is None
        assert nested["paper"]["preprint"] == {
            "doi": None,
            "arxiv_id": "2601.00009",
            "url": "https://arxiv.org/abs/2601.00009",
        }

    # A published paper with no preprint known: its `doi` says it all.
    paper.doi, paper.arxiv_id = "10.1145/3.4", ""
    paper.save()
    shown = get_json(client, f"{PAPERS_URL}{paper.pk}/")
    assert (shown["preprint"], shown["version_of_record"]) == (None, None)


def count_queries(client, path, **params) -> tuple[int, int]:
    client.get(path, params)  # per-process caches
    with CaptureQueriesContext(connection) as queries:
        body = get_json(client, path, **params)
    return len(queries), len(body["items"])


@pytest.mark.parametrize(
    ("path", "params", "sizes"),
    [
        (PAPERS_URL, {"fields": "*"}, (10, 53)),
        (PAGES_URL, {"type": DIGEST_TYPE, "fields": "*", "locale": "en"}, (10, 53)),
        (PAGES_URL, {"type": DIGEST_TYPE, "fields": "*", "locale": "zh-hant"}, (10, 53)),
    ],
)
def test_notices_cost_one_query_whatever_the_number_of_papers(client, path, params, sizes):
    marked = Paper.objects.order_by("pk")[::5]  # every fifth paper has two notices
    for paper in marked:
        add_notice(paper, RETRACTION)
        add_notice(paper, CONCERN)
    small, large = (count_queries(client, path, limit=size, **params) for size in sizes)
    assert (small[1], large[1]) == sizes
    assert small[0] == large[0]
    assert large[0] <= 12  # the list budget of issue #22 (tests/api/test_queries.py)
    listed = get_json(client, path, limit=sizes[1], **params)["items"]
    papers = [item.get("paper", item) for item in listed]
    assert {paper["id"] for paper in papers if paper["retracted"]} == {p.pk for p in marked}
    assert all(len(paper["updates"]) == 2 for paper in papers if paper["retracted"])
