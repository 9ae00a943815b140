"""Requests a sync spends, and how it writes: against the stand-in serving the benchmark's
synthetic papers (schema-true records for papers of twelve proceedings, a quarter without DOI)."""

from __future__ import annotations

from urllib.parse import urlencode

import pytest

from bench.scenario import create_papers
from bench.sync_needs import requests_needed
from bench.synthetic_papers import synthetic_paper
from bench.upstream_catalog import expected_notices, flip_notices, synthetic_catalog
from cms.papers.models import Paper, PaperNotice
from sync import runs, services
from sync.models import PaperChange, PaperSyncState, SyncRun
from sync.politeness import reset_breakers, reset_pacing, reset_pauses
from sync.selectors import batch_order
from tests.standin import SOURCES, Upstream, pointed_at

pytestmark = pytest.mark.django_db


@pytest.fixture
def synthetic(settings):
    """Start a stand-in for `numbers`' synthetic papers and add those papers to the site."""
    servers = []

    def start(numbers) -> tuple[Upstream, list[int], list]:
        papers = [synthetic_paper(number) for number in numbers]
        server = Upstream(synthetic_catalog(papers)).__enter__()
        servers.append(server)
        settings.SYNC_SOURCES = pointed_at(server, settings.SYNC_SOURCES)
        create_papers(numbers)
        ids = list(
            Paper.objects.filter(title__startswith="[Synthetic]")
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        return server, ids, papers

    reset_pacing()
    reset_breakers()
    reset_pauses()
    yield start
    for server in servers:
        server.__exit__()


def sync(ids: list[int]) -> services.BatchOutcome:
    run = runs.run_start(kind=SyncRun.Kind.PAPERS, trigger="test", paper_ids=ids)
    return services.sync_batch(paper_ids=ids, run=run)


def test_a_sync_makes_only_the_requests_the_apis_batch_sizes_need(synthetic):
    upstream, ids, papers = synthetic(range(240))  # 20 papers in each of 12 proceedings
    outcome = sync(ids)

    made = {source: len(upstream.requests_to(source)) for source in SOURCES}
    assert made == requests_needed(papers, upstream.catalog)
    # Counted by hand from the APIs' batch sizes: 180 papers with a DOI and 60 NSDI papers
    # without (3 years of 20); 12 proceedings.
    assert made == {
        "dblp": 12,  # one table of contents per proceedings
        "crossref": 9,  # 180 DOIs, 20 per filter; NSDI (no DOIs there) not searched by title
        # 180 DOIs, 50 per filter; 60 titles (5,174 URL-encoded characters) in filters of at
        # most 3,000
        "openalex": 4 + 2,
        "semanticscholar": 1 + 3,  # 180 ids, 500 per batch; one bulk listing per NSDI year
    }
    s2_paths = {entry.path for entry in upstream.requests_to("semanticscholar")}
    assert "/graph/v1/paper/search/match" not in s2_paths  # NSDI years listed, not matched
    for entry in upstream.requests_to("openalex"):  # OpenAlex refuses URLs over about 4 KB
        assert len(f"/openalex/works?{urlencode(entry.query, doseq=True)}") < 4000
    assert outcome.matched == outcome.changed == 240 and not outcome.errors

    # Every source's record was found and merged, USENIX papers (no DOI) included.
    nsdi = Paper.objects.filter(pk__in=ids, venue="NSDI")
    assert nsdi.count() == 60 and not nsdi.exclude(doi="").exists()
    catalog = upstream.catalog
    in_s2 = {p["title"] for p in catalog.semanticscholar}
    assert len(in_s2) < 240  # a few `null`s in its batch answer
    with_abstract = {w["DOI"] for w in catalog.crossref if w.get("abstract")}
    with_abstract |= {p["title"] for p in catalog.semanticscholar if p.get("abstract")}
    with_abstract |= {w["title"] for w in catalog.openalex if w.get("abstract_inverted_index")}
    for paper in Paper.objects.filter(pk__in=ids):
        has_one = paper.doi in with_abstract or paper.title in with_abstract
        assert paper.abstract.startswith("[Synthetic]") == has_one, paper.title
    for paper in Paper.objects.filter(pk__in=ids).prefetch_related("authors"):
        assert paper.openalex_id
        assert bool(paper.semantic_scholar_id) == (paper.title in in_s2), paper.title
        assert paper.authors.all()[0].orcid  # from Crossref, or OpenAlex for USENIX papers
        assert all(author.affiliations for author in paper.authors.all())


def test_a_run_fetches_each_table_of_contents_once_across_its_batches(synthetic):
    upstream, ids, _papers = synthetic(range(120))
    run = runs.run_start(kind=SyncRun.Kind.ALL, trigger="test", paper_ids=ids)
    order = batch_order(Paper.objects.filter(pk__in=ids).values_list("pk", "year", "venue"))
    for start in range(0, len(order), 25):  # five batches, each spanning several proceedings
        services.sync_batch(paper_ids=order[start : start + 25], run=run)
    tocs = [entry.query["q"][0] for entry in upstream.requests_to("dblp")]
    assert sorted(tocs) == sorted(set(tocs)) and len(tocs) == 12
    assert not PaperSyncState.objects.filter(run=run, in_flight=True).exists()

    # A new run asks again: a table of contents is only shared within a run.
    services.sync_batch(
        paper_ids=ids[:5],
        run=runs.run_start(kind=SyncRun.Kind.PAPERS, trigger="test", paper_ids=ids[:5]),
    )
    assert len(upstream.requests_to("dblp")) > 12


def test_papers_are_written_while_the_slowest_source_is_still_asking(synthetic, settings):
    upstream, ids, _papers = synthetic(range(0, 240, 4))  # 60 SIGCOMM papers: 3 Crossref requests
    # Each Crossref answer takes a second (within a longer read timeout): the first chunk's
    # other answers and its write fit in that margin even on a loaded machine (0.3 s did not,
    # once in a full suite).
    upstream.slow["crossref"] = 1.0
    settings.SYNC_TIMEOUT = (1.0, 5.0)
    settings.SYNC_WRITE_CHUNK = 10
    outcome = sync(ids)
    assert outcome.changed == 60
    last_crossref = max(entry.at for entry in upstream.requests_to("crossref"))
    first_written = min(
        state.last_synced_at.timestamp()
        for state in PaperSyncState.objects.filter(paper_id__in=ids)
    )
    assert len(upstream.requests_to("crossref")) == 3
    assert first_written < last_crossref  # the first answers were written before the last ask


def test_a_chunk_is_written_whole_or_not_at_all(synthetic, settings, monkeypatch):
    _upstream, ids, _papers = synthetic(range(0, 120, 4))  # 30 SIGCOMM papers
    settings.SYNC_WRITE_CHUNK = 10
    real_bulk_create = PaperChange.objects.bulk_create
    calls = []

    def failing_second_chunk(objs, *args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("database went away")
        return real_bulk_create(objs, *args, **kwargs)

    monkeypatch.setattr(PaperChange.objects, "bulk_create", failing_second_chunk)
    run = runs.run_start(kind=SyncRun.Kind.PAPERS, trigger="test", paper_ids=ids)
    with pytest.raises(RuntimeError, match="database went away"):
        services.sync_batch(paper_ids=ids, run=run)

    done = set(
        PaperSyncState.objects.filter(run=run, in_flight=False).values_list("paper_id", flat=True)
    )
    assert len(done) == 10  # the first chunk; the failed one left no trace
    for paper in Paper.objects.filter(pk__in=ids).prefetch_related("authors"):
        synced = paper.pk in done
        assert bool(paper.openalex_id) == synced
        assert bool(paper.provenance) == synced
        assert any(a.affiliations for a in paper.authors.all()) == synced

    monkeypatch.setattr(PaperChange.objects, "bulk_create", real_bulk_create)
    outcome = services.sync_batch(paper_ids=ids, run=run)  # the task redelivered
    assert outcome.changed == 20  # only what the run still owed
    assert not PaperSyncState.objects.filter(run=run, in_flight=True).exists()
    assert PaperChange.objects.filter(run=run, field="authors").count() == 30


def test_two_papers_given_one_doi_get_it_once(synthetic, monkeypatch):
    upstream, ids, papers = synthetic(range(0, 8, 4))  # two SIGCOMM papers
    twin = papers[0].doi

    def same_doi(source, data):
        hits = data["result"]["hits"].get("hit") if source == "dblp" else None
        for hit in hits if isinstance(hits, list) else filter(None, [hits]):
            hit["info"]["doi"] = twin
        return data

    Paper.objects.filter(pk__in=ids).update(doi="")  # so that DBLP's DOI is taken
    upstream.transform = same_doi
    outcome = sync(ids)
    assert Paper.objects.filter(pk__in=ids, doi=twin).count() == 1
    assert [e["message"] for e in outcome.errors if e["source"] == "doi"] == [
        f"DOI {twin} already belongs to another paper"
    ]


def notices_stored() -> set[tuple[str, str, str]]:
    return set(PaperNotice.objects.values_list("paper__title", "update_type", "source"))


def test_notices_come_in_the_answers_a_sync_asks_for_anyway(synthetic):
    upstream, ids, papers = synthetic(range(400))
    first = sync(ids)
    assert notices_stored() == expected_notices(papers) and len(notices_stored()) == 8

    assert flip_notices(upstream.catalog, papers) == 4  # 1% of the papers
    before = {source: len(upstream.requests_to(source)) for source in SOURCES}
    second = sync(ids)
    made = {source: len(upstream.requests_to(source)) - before[source] for source in SOURCES}
    assert notices_stored() == expected_notices(papers, flipped_once=True)
    assert second.changed == len(notices_stored() ^ expected_notices(papers))
    # Not one request more: Crossref and OpenAlex send notices in the answers they batch anyway
    # (Semantic Scholar, which now knows the USENIX papers' ids, is asked less).
    needed = requests_needed(papers, upstream.catalog)
    assert {s: made[s] for s in ("dblp", "crossref", "openalex")} == {
        s: needed[s] for s in ("dblp", "crossref", "openalex")
    }
    assert made == dict(second.requests)
    assert sum(second.requests.values()) <= sum(first.requests.values())  # target: <= 2x
