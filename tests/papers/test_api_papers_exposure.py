"""The papers endpoint shows only papers that a live, public digest shows: the pages API's own
rule (cms.api.visibility), in the requested language - in the listing, its filters and
search, and the detail view."""

import pytest
from django.contrib.auth.models import Group
from wagtail.models import PageViewRestriction

from cms.digests.models import DigestPage
from cms.papers.models import Paper, PaperAuthor
from tests.support.content import digest, topic_of, translation
from tests.support.factories import DRAFT, DigestPageFactory, PaperAuthorFactory, PaperFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("uncached_api")]

PAPERS_URL = "/api/v2/papers/"
UNIQUE_AUTHOR = "Zephyrine Quillfeather"


@pytest.fixture
def odin():
    """Odin's digests in both languages, its paper given an author no other paper has."""
    english = digest("Odin")
    PaperAuthor.objects.create(paper=english.paper, name=UNIQUE_AUTHOR, sort_order=99)
    return english, translation(english, "zh-hant")


def exposures(client, paper: Paper) -> set[str]:
    """Every way the paper (or its author) can be found through /api/v2/papers/."""
    seen = set()
    for language in (None, "en", "zh-hant"):
        locale = {"locale": language} if language else {}
        for params in (
            {"limit": 100},
            {"title": paper.title},
            {"search": paper.title.split()[0]},
            {"search": UNIQUE_AUTHOR.split()[1]},
            {"search": paper.doi} if paper.doi else {"search": paper.title},
        ):
            response = client.get(PAPERS_URL, {**params, **locale, "fields": "authors"})
            assert response.status_code == 200, response.content
            for item in response.json()["items"]:
                if item["id"] == paper.pk:
                    seen.add(f"list {language} {sorted(params)}")
                names = {author["name"] for author in item["authors"]}
                if UNIQUE_AUTHOR in names:
                    seen.add(f"author via {item['id']}")
        detail = client.get(f"{PAPERS_URL}{paper.pk}/", locale)
        if detail.status_code != 404:
            seen.add(f"detail {language}")
    return seen


def restrict(page, restriction_type: str, **extra) -> None:
    restriction = PageViewRestriction.objects.create(
        page=page, restriction_type=restriction_type, **extra
    )
    if restriction_type == PageViewRestriction.GROUPS:
        restriction.groups.set([Group.objects.get_or_create(name="Insiders")[0]])


def test_a_paper_of_a_public_digest_is_found_every_way(client, odin):
    seen = exposures(client, odin[0].paper)

    assert {"detail None", "detail en", "detail zh-hant"} <= seen
    assert "list None ['search']" in seen and "list zh-hant ['title']" in seen
    assert f"author via {odin[0].paper.pk}" in seen


@pytest.mark.parametrize(
    "hide",
    [
        pytest.param(lambda page: page.unpublish(), id="unpublished"),
        pytest.param(
            lambda page: restrict(page, PageViewRestriction.PASSWORD, password="s3cret"),
            id="password",
        ),
        pytest.param(lambda page: restrict(page, PageViewRestriction.LOGIN), id="login"),
        pytest.param(lambda page: restrict(page, PageViewRestriction.GROUPS), id="groups"),
        pytest.param(lambda page: topic_of(page).unpublish(), id="topic-unpublished"),
        pytest.param(
            lambda page: restrict(topic_of(page), PageViewRestriction.LOGIN), id="topic-private"
        ),
    ],
)
def test_a_paper_whose_digests_are_hidden_is_not_found(client, odin, hide):
    for page in odin:
        hide(page)

    assert exposures(client, odin[0].paper) == set()


def test_a_paper_only_a_draft_shows_is_not_found(client):
    paper = PaperFactory(title="Secret draft systems paper", venue="NSDI", year=2026)
    PaperAuthorFactory(paper=paper, name=UNIQUE_AUTHOR, sort_order=0)
    DigestPageFactory(
        parent=topic_of(digest("Odin")),
        title="Draft digest",
        short_name="Drafty",
        reading_minutes=3,
        summary="x",
        live=False,
        revision=DRAFT,
        revision__paper=paper,  # in the draft only
    )

    assert exposures(client, paper) == set()


def test_a_paper_attached_only_in_a_draft_revision_is_not_found(client):
    """The live page still shows its old paper; the draft's new one stays unseen."""
    paper = PaperFactory(title="Paper named in a draft only", venue="NSDI", year=2026)
    PaperAuthorFactory(paper=paper, name=UNIQUE_AUTHOR, sort_order=0)
    english = digest("Odin")
    english.paper = paper
    english.save_revision()  # a draft: the live row keeps Odin's paper

    assert exposures(client, paper) == set()
    assert "detail en" in exposures(client, digest("Odin").paper)


def test_a_paper_no_page_shows_is_not_found(client):
    paper = PaperFactory(title="Orphan paper", venue="ISCA", year=2025)

    assert exposures(client, paper) == set()


def test_the_locale_narrows_to_that_language_s_public_digests(client, odin):
    english, chinese = odin
    chinese.unpublish()

    seen = exposures(client, english.paper)

    assert "detail en" in seen and "detail None" in seen
    assert "detail zh-hant" not in seen
    assert not any(entry.startswith("list zh-hant") for entry in seen)


def test_an_unknown_locale_is_a_400_naming_it(client):
    response = client.get(PAPERS_URL, {"locale": "fr"})

    assert response.status_code == 400
    assert "locale" in response.json()["message"]


def test_every_public_paper_is_listed_once(client):
    public = set(
        DigestPage.objects.live().public().exclude(paper=None).values_list("paper_id", flat=True)
    )

    response = client.get(PAPERS_URL, {"limit": 100})

    assert {item["id"] for item in response.json()["items"]} == public
    assert response.json()["meta"]["total_count"] == len(public)
