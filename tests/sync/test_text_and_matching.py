"""Cleaning source text and matching papers without a DOI."""

import pytest

from sync.matching import RecordIndex, best_match, normalize_title
from sync.sources.base import AuthorRecord, PaperQuery, PaperRecord
from sync.text import bare_doi, bare_orcid, clean_person_name, clean_text, dblp_title


@pytest.mark.parametrize(
    ("raw", "plain"),
    [
        ("<jats:p>Load &amp; balance</jats:p>", "Load & balance"),
        ("Caf&eacute; &amp;amp; bar", "Café & bar"),
        ("<scp>GPU</scp>s at <i>scale</i>", "GPUs at scale"),
        ("Sub-$\\mu$s tail with \\emph{Swing}", "Sub-μs tail with Swing"),
        ("100% of {GPU}s", "100% of GPUs"),
        ("<script>alert(1)</script>Falcon", "Falcon"),
        ("  many\n  spaces ", "many spaces"),
    ],
)
def test_clean_text(raw, plain):
    assert clean_text(raw) == plain


def test_dblp_conventions_are_undone():
    assert dblp_title("Swing: Short-cutting Rings for Higher Bandwidth Allreduce.") == (
        "Swing: Short-cutting Rings for Higher Bandwidth Allreduce"
    )
    assert clean_person_name("Wei Wang 0001") == "Wei Wang"
    assert clean_person_name("Agent 007") == "Agent 007"  # not a four-digit homonym number


def test_identifiers_are_bare():
    assert bare_orcid("http://orcid.org/0000-0001-5109-370X") == "0000-0001-5109-370X"
    assert bare_orcid("not an orcid") == ""
    assert bare_doi("https://doi.org/10.1145/ABC.1") == "10.1145/abc.1"
    assert bare_doi("nonsense") == ""


def test_normalized_titles_ignore_typography():
    assert normalize_title("Crux: GPU-Efficient <i>Scheduling</i>.") == normalize_title(
        "crux gpu efficient scheduling"
    )


QUERY = PaperQuery(
    paper_id=1,
    title="Swing: Short-cutting Rings for Higher Bandwidth Allreduce",
    venue="NSDI",
    year=2024,
    first_author="Daniele De Sensi",
)


def record(title=QUERY.title, year=2024, first="Daniele De Sensi", **kwargs):
    return PaperRecord(
        source="t", title=title, year=year, authors=[AuthorRecord(name=first)], **kwargs
    )


def test_match_takes_the_same_paper_in_other_typography():
    found = best_match(
        QUERY, [record(title="SWING: short-cutting rings for higher-bandwidth allreduce.")]
    )
    assert found is not None


@pytest.mark.parametrize(
    "candidate",
    [
        record(is_preprint=True),
        record(title=QUERY.title + " (Extended Version)"),
        record(year=2021),
        record(first="Someone Else"),
        record(title="Swing: Long Rings for Lower Bandwidth Broadcast"),
        record(title="Swing 2: Short-cutting Rings for Higher Bandwidth Allreduce"),
    ],
    ids=[
        "preprint",
        "extended-version",
        "year-off-by-three",
        "other-first-author",
        "other-title",
        "sequel",
    ],
)
def test_match_refuses_near_misses(candidate):
    assert best_match(QUERY, [candidate]) is None


def test_numbered_titles_match_only_their_own_number():
    query = PaperQuery(
        paper_id=1, title="System 00012: rethinking flow control", venue="NSDI", year=2024
    )
    same = record(title="System 12: Rethinking Flow Control", year=2024, first="")
    sibling = record(title="System 00013: rethinking flow control", year=2024, first="")
    assert best_match(query, [sibling]) is None
    assert best_match(query, [sibling, same]) is same


def test_match_prefers_the_published_paper_over_its_preprint():
    published = record(venue="NSDI")
    assert best_match(QUERY, [record(is_preprint=True), published]) is published


def test_a_doi_decides_over_the_title():
    query = PaperQuery(paper_id=1, title="Anything", venue="SIGCOMM", year=2025, doi="10.1/x")
    assert best_match(query, [record(title="Other", doi="10.1/x")]).doi == "10.1/x"


def test_a_record_index_finds_what_best_match_would_and_by_dblp_key():
    published = PaperRecord(
        source="semanticscholar",
        title="Swing: Short-cutting Rings for Higher Bandwidth Allreduce",
        year=2024,
        authors=[AuthorRecord(name="Daniele De Sensi")],
        ids={"dblp_key": "conf/nsdi/SensiBH24"},
    )
    preprint = PaperRecord(
        source="semanticscholar",
        title=published.title,
        year=2024,
        authors=published.authors,
        is_preprint=True,
    )
    with_doi = PaperRecord(source="crossref", title="Something else entirely", doi="10.1/x")
    near = PaperRecord(
        source="semanticscholar",
        title="Swing: Short-Cutting Rings for Higher-Bandwidth Allreduce.",
        year=2025,
        authors=published.authors,
    )
    index = RecordIndex([preprint, with_doi, published, near])
    query = PaperQuery(paper_id=1, title=published.title, venue="NSDI", year=2024)
    assert index.find(query) is published  # the exact title, not the preprint before it
    keyed = PaperQuery(
        2, "An editor's title", "NSDI", 2024, ids={"dblp_key": "conf/nsdi/SensiBH24"}
    )
    assert index.find(keyed) is published
    assert index.find(PaperQuery(3, "Whatever", "SIGCOMM", 2025, doi="10.1/x")) is with_doi
    typo = PaperQuery(4, "Swing: Short-cutting Rings for Higher Bandwith Allreduce", "NSDI", 2024)
    assert index.find(typo) is best_match(typo, [preprint, with_doi, published, near])
    assert index.find(typo) in (published, near)  # fuzzy, as best_match
    other = PaperQuery(paper_id=5, title="A different paper", venue="NSDI", year=2024)
    assert index.find(other) is None
