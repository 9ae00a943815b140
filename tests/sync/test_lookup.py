"""An editor's lookup by identifier, through the sync's sources, matching and merge, against
the local stand-in serving recorded answers (tests/fixtures/*/…lookup…)."""

import re
import socket
import time

import pytest

from cms.papers.models import Paper
from sync import lookup
from sync.errors import SourceError
from sync.identifiers import UnrecognisedIdentifier, recognise
from sync.models import PaperSyncState
from sync.services import paper_create_from_lookup
from sync.sources import get_sources
from tests.standin import Canned

from .recorded import FIXTURES

HPN_DOI = "10.1145/3651890.3672265"
HPN_TITLE = "Alibaba HPN: A Data Center Network for Large Language Model Training"
PARCAE_TITLE = "Parcae: Proactive, Liveput-Optimized DNN Training on Preemptible Instances"
HTML_429 = (FIXTURES / "errors" / "429.html").read_bytes()
HTML_502 = (FIXTURES / "errors" / "502.html").read_bytes()


@pytest.fixture
def upstream(lookup_upstream):
    return lookup_upstream


@pytest.mark.parametrize(
    ("text", "kind", "value"),
    [
        ("https://doi.org/10.1145/3651890.3672265", "doi", HPN_DOI),
        ("doi:10.1145/3651890.3672265", "doi", HPN_DOI),
        ("https://dblp.org/rec/conf/nsdi/DuanSM24.html", "dblp_key", "conf/nsdi/DuanSM24"),
        ("DBLP:conf/nsdi/DuanSM24", "dblp_key", "conf/nsdi/DuanSM24"),
        ("https://arxiv.org/abs/2403.14097v2", "arxiv_id", "2403.14097"),
        ("arXiv:2403.14097", "arxiv_id", "2403.14097"),
        ("https://doi.org/10.48550/arXiv.2403.14097", "arxiv_id", "2403.14097"),
        (
            "https://www.usenix.org/conference/nsdi24/presentation/duan/",
            "usenix",
            "https://www.usenix.org/conference/nsdi24/presentation/duan",
        ),
        ("https://openalex.org/W4401000001", "openalex_id", "W4401000001"),
        ("w4401000001", "openalex_id", "W4401000001"),
        (
            "https://www.semanticscholar.org/paper/Parcae-Duan/"
            "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d",
            "semantic_scholar_id",
            "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d",
        ),
        (f"{PARCAE_TITLE} NSDI 2024", "title", PARCAE_TITLE),
    ],
)
def test_identifiers_are_recognised_and_normalised(text, kind, value):
    identifier = recognise(text)
    assert (identifier.kind, identifier.value) == (kind, value)


def test_a_title_keeps_its_year_and_venue():
    identifier = recognise(f"{PARCAE_TITLE} (NSDI 2024)")
    assert (identifier.venue, identifier.year) == ("NSDI", 2024)


@pytest.mark.parametrize(
    ("text", "named"),
    [("https://example.org/paper/1", "example.org"), ("10.1145", "10.1145"), ("x y", "x y")],
)
def test_bad_input_names_what_was_not_recognised(text, named):
    with pytest.raises(UnrecognisedIdentifier, match=re.escape(named)):
        recognise(text)


@pytest.mark.django_db
def test_a_doi_is_merged_from_every_source_and_saved_with_provenance(upstream):
    found = lookup.look_up(f"https://doi.org/{HPN_DOI}")
    assert (found.title, found.venue, found.year) == (HPN_TITLE, "SIGCOMM", 2024)
    assert set(found.records) == {"dblp", "crossref", "openalex", "semanticscholar"}
    assert found.unanswered == {}
    assert found.existing_id is None and found.problem == ""
    # DBLP was asked the way a sync asks it, once the venue and year were known.
    assert [r.query["q"] for r in upstream.requests_to("dblp")] == [
        ["toc:db/conf/sigcomm/sigcomm2024.bht:"]
    ]
    paper, created = paper_create_from_lookup(found=found)
    assert created
    paper.refresh_from_db()
    assert paper.doi == HPN_DOI
    assert paper.dblp_key == "conf/sigcomm/QianXC24"
    assert paper.openalex_id == "W4401000001"
    assert [a.name for a in paper.authors.all()] == ["Kun Qian", "Yongqing Xi", "Jiamin Cao"]
    assert paper.authors.first().orcid == "0000-0001-5109-3700"
    assert paper.abstract.startswith("Training large language models")
    sources = {field: entry["source"] for field, entry in paper.provenance.items()}
    assert sources["title"] == "dblp"
    assert sources["abstract"] == "crossref"
    assert sources["openalex_id"] == "openalex"
    assert sources["venue"] == "dblp"
    assert sources["year"] == "dblp"


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text",
    [
        "https://dblp.org/rec/conf/nsdi/DuanSM24.html",
        "arXiv:2403.14097",
        "https://www.usenix.org/conference/nsdi24/presentation/duan",
        "https://www.semanticscholar.org/paper/9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d",
    ],
)
def test_each_kind_of_identifier_finds_the_nsdi_paper(upstream, text):
    found = lookup.look_up(text)
    assert (found.title, found.venue, found.year) == (PARCAE_TITLE, "NSDI", 2024)
    fields = {change.field: change for change in found.changes}
    assert fields["dblp_key"].new == "conf/nsdi/DuanSM24"
    assert fields["arxiv_id"].new == "2403.14097"
    assert fields["semantic_scholar_id"].new == "9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d"
    assert "doi" not in fields  # the arXiv DOI names the preprint, not the paper
    assert [a["name"] for a in fields["authors"].new] == [
        "Jiangfei Duan",
        "Ziang Song",
        "Xupeng Miao",
    ]
    assert fields["authors"].source == "dblp"


@pytest.mark.django_db
def test_an_openalex_id_finds_its_work(upstream):
    found = lookup.look_up("https://openalex.org/W4401000001")
    assert (found.title, found.venue, found.year) == (HPN_TITLE, "SIGCOMM", 2024)
    assert {c.field: c.new for c in found.changes}["doi"] == HPN_DOI


@pytest.mark.django_db
def test_a_title_lists_candidates_with_venue_year_and_first_authors(upstream):
    found = lookup.look_up("Data Center Network for Large Language Model Training")
    assert found.changes == []
    titles = [(c.title, c.venue, c.venue_name, c.year) for c in found.candidates]
    assert (HPN_TITLE, "SIGCOMM", "SIGCOMM", 2024) in titles
    assert (
        "A Data Center Network for Large Language Model Training at Scale",
        "",
        "IEEE Micro",
        2025,
    ) in titles
    assert all(c.venue_name != "CoRR" for c in found.candidates)  # preprints are no candidates
    hpn = found.candidates[0]  # the site's venues first
    assert hpn.venue == "SIGCOMM"
    assert hpn.authors == ("Kun Qian", "Yongqing Xi", "Jiamin Cao")
    # Picking one looks it up by its identifier.
    picked = lookup.look_up(hpn.identifier)
    assert picked.title == HPN_TITLE and picked.venue == "SIGCOMM"


@pytest.mark.django_db
def test_a_paper_the_site_has_is_not_added_again(upstream):
    first, created = paper_create_from_lookup(found=lookup.look_up(HPN_DOI))
    assert created
    count = Paper.objects.count()
    again = lookup.look_up("https://openalex.org/W4401000001")
    assert again.existing_id == first.pk
    assert paper_create_from_lookup(found=again) == (first, False)
    assert Paper.objects.count() == count


@pytest.mark.django_db
def test_a_seeded_paper_is_found_by_title_and_year(upstream):
    seeded = Paper.objects.get(title__startswith="ByteScale")
    assert not seeded.doi
    found = lookup.look_up("10.1145/3718958.3750471")  # its DOI, which the seed lacks
    assert found.existing_id == seeded.pk


@pytest.mark.django_db
def test_an_unknown_doi_is_reported_and_nothing_is_written(upstream):
    count = Paper.objects.count()
    with pytest.raises(lookup.NotFound, match=re.escape("10.1145/0000000.9999999")):
        lookup.look_up("10.1145/0000000.9999999")
    assert Paper.objects.count() == count


@pytest.mark.django_db
def test_when_sources_do_not_answer_the_editor_is_not_told_nobody_knows_it(upstream):
    for source in ("crossref", "openalex", "semanticscholar", "dblp"):
        upstream.fail_next(source, *[Canned(503, HTML_502, "text/html")] * 8)
    with pytest.raises(lookup.NotFound) as raised:
        lookup.look_up("10.1145/0000000.9999999")
    message = str(raised.value)
    assert message.startswith("Nothing found for the DOI “10.1145/0000000.9999999”, but not")
    assert "No source knows" not in message and "enter the paper by hand" in message
    assert "503" in message


@pytest.mark.django_db
def test_sources_failing_mid_lookup_are_named_and_the_rest_is_kept(upstream):
    upstream.fail_next("crossref", *[Canned(429, HTML_429, "text/html", {"Retry-After": "0"})] * 8)
    upstream.fail_next("openalex", *[Canned(502, HTML_502, "text/html")] * 8)
    upstream.fail_next("dblp", *[Canned(503, HTML_502, "text/html")] * 8)  # the second round
    found = lookup.look_up(HPN_DOI)
    assert set(found.unanswered) == {"crossref", "openalex", "dblp"}
    assert "429" in found.unanswered["crossref"]
    assert "502" in found.unanswered["openalex"]
    assert "503" in found.unanswered["dblp"]
    assert set(found.records) == {"semanticscholar"}
    assert found.title == HPN_TITLE
    fields = {change.field: change.source for change in found.changes}
    assert fields["dblp_key"] == "semanticscholar"


def works_as_one_object(source: str, data):
    """Crossref's `message.items` and OpenAlex's `results` (each documented as a list) sent as
    their first work alone; the rest of each answer as recorded."""
    if source == "crossref":
        data["message"]["items"] = next(iter(data["message"]["items"]), {})
    elif source == "openalex":
        data["results"] = next(iter(data["results"]), {})
    return data


@pytest.mark.django_db
@pytest.mark.parametrize("text", [HPN_DOI, f"{HPN_TITLE} SIGCOMM 2024"])
def test_an_answer_of_another_shape_is_named_as_a_sync_names_it(upstream, text):
    """A list that is not a list is the sync's "unexpected response shape", not "nothing
    found": the editor is told those sources did not answer."""
    upstream.transform = works_as_one_object
    found = lookup.look_up(text)
    for name, shown in (("crossref", "Crossref"), ("openalex", "OpenAlex")):
        assert found.unanswered[name].startswith(f"{shown}: unexpected response shape"), name
        assert len(upstream.requests_to(name)) == 1, name  # not asked again as "nothing found"
    assert found.title == HPN_TITLE or found.candidates[0].title == HPN_TITLE  # from the others


@pytest.mark.django_db
def test_a_single_work_of_another_shape_is_named_too(upstream):
    """OpenAlex's `/works/{id}` answers one Work object; a list instead is no "nothing found"."""
    upstream.transform = lambda source, data: [data] if source == "openalex" else data
    with pytest.raises(lookup.NotFound) as raised:
        lookup.look_up("https://openalex.org/W4401000001")
    assert "not every source answered" in str(raised.value)
    assert "OpenAlex: unexpected response shape" in str(raised.value)


@pytest.mark.django_db
def test_a_source_that_does_not_answer_in_time_is_named(upstream, settings):
    settings.SYNC_TIMEOUT = (1.0, 5.0)
    upstream.slow["semanticscholar"] = 3.0
    found = lookup.look_up(HPN_DOI, timeout=1.5)
    assert "semanticscholar" in found.unanswered
    assert "in time" in found.unanswered["semanticscholar"]
    assert {"crossref", "openalex"} <= set(found.records)
    upstream.slow.clear()


@pytest.mark.django_db
def test_a_source_too_slow_in_the_second_round_is_named(upstream, settings):
    settings.SYNC_TIMEOUT = (1.0, 5.0)
    upstream.slow["dblp"] = 3.0  # DBLP is asked only once the DOI told venue and year
    found = lookup.look_up(HPN_DOI, timeout=1.5)
    assert found.unanswered == {"dblp": "DBLP did not answer in time"}
    assert {c.field: c.source for c in found.changes}["title"] == "crossref"
    upstream.slow.clear()


@pytest.mark.django_db
@pytest.mark.parametrize("field", ["arxiv_id", "dblp_key"])
def test_a_paper_with_the_same_arxiv_id_or_dblp_key_is_found(upstream, field):
    seeded = Paper.objects.get(title__startswith="ByteScale")
    setattr(seeded, field, {"arxiv_id": "2403.14097", "dblp_key": "conf/nsdi/DuanSM24"}[field])
    seeded.save()
    found = lookup.look_up("https://www.usenix.org/conference/nsdi24/presentation/duan")
    assert found.existing_id == seeded.pk


@pytest.mark.django_db
def test_a_paper_of_another_venue_is_shown_but_cannot_be_saved(upstream):
    count = Paper.objects.count()
    found = lookup.look_up("10.1109/mm.2025.0000001")
    assert found.title == "A Data Center Network for Large Language Model Training at Scale"
    assert "IEEE Micro" in found.problem and "SIGCOMM" in found.problem
    with pytest.raises(ValueError, match="IEEE Micro"):
        paper_create_from_lookup(found=found)
    assert Paper.objects.count() == count


def unreachable(settings, base_url: str, *names: str) -> None:
    """The sources `names` (all by default) at `base_url`, with production's retries: the
    backoff between five attempts (0 + 1 + 2 + 4 s) outlasts the deadlines the tests below
    give a lookup."""
    settings.SYNC_RETRIES, settings.SYNC_BACKOFF_FACTOR = 4, 0.5
    settings.SYNC_SOURCES = {
        name: {**config, "OPTIONS": {**config["OPTIONS"], "base_url": base_url}}
        if not names or name in names
        else config
        for name, config in settings.SYNC_SOURCES.items()
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    "text",
    [
        HPN_DOI,
        "DBLP:conf/nsdi/DuanSM24",
        "arXiv:2403.14097",
        "https://openalex.org/W4401000001",
        "https://www.usenix.org/conference/nsdi24/presentation/duan",
        f"{PARCAE_TITLE} NSDI 2024",
    ],
)
def test_an_offline_lookup_fails_at_once_and_says_why(
    settings, monkeypatch, fresh_politeness, text
):
    """No name resolves (a machine offline; the resolver is patched, nothing leaves it): the
    lookup does not back off and retry until its deadline, and says what a sync says."""
    real_getaddrinfo = socket.getaddrinfo

    def resolver(host, *args, **kwargs):
        if host == "sources.invalid":
            raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")
        return real_getaddrinfo(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", resolver)
    unreachable(settings, "http://sources.invalid")
    started = time.monotonic()
    with pytest.raises(lookup.NotFound) as raised:
        lookup.look_up(text, timeout=3.0)
    assert time.monotonic() - started < 2.0
    message = str(raised.value)
    assert "did not answer in time" not in message
    assert "could not be reached (its name did not resolve, 1 attempt)" in message


@pytest.mark.django_db
def test_a_source_refusing_connections_in_the_second_round_is_named_at_once(
    upstream, settings, closed_port
):
    unreachable(settings, f"http://127.0.0.1:{closed_port}", "dblp")
    started = time.monotonic()
    found = lookup.look_up(HPN_DOI, timeout=3.0)
    assert time.monotonic() - started < 2.0
    assert found.unanswered == {"dblp": "DBLP could not be reached (connection refused, 1 attempt)"}
    assert found.title == HPN_TITLE


def test_a_sync_still_retries_a_connection_that_could_not_be_made(
    settings, fresh_politeness, closed_port
):
    """Only a lookup gives up at once: a sync, which nobody waits on, retries."""
    unreachable(settings, f"http://127.0.0.1:{closed_port}")
    settings.SYNC_RETRIES, settings.SYNC_BACKOFF_FACTOR = 2, 0.01
    with pytest.raises(SourceError, match=re.escape("(connection refused, 3 attempts)")):
        get_sources(["crossref"])[0].get_json("/works")
    with pytest.raises(SourceError, match=re.escape("(connection refused, 1 attempt)")):
        get_sources(["crossref"], fail_fast=True)[0].get_json("/works")


@pytest.mark.django_db
def test_a_paper_added_while_a_source_did_not_answer_is_not_marked_synced(upstream):
    upstream.fail_next("openalex", *[Canned(502, HTML_502, "text/html")] * 8)
    found = lookup.look_up(HPN_DOI)
    assert set(found.unanswered) == {"openalex"}
    paper, created = paper_create_from_lookup(found=found)
    assert created and PaperSyncState.objects.get(paper=paper).last_synced_at is None
