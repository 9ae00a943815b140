"""A sync end to end, in-process (no broker), against the local upstream's recorded answers."""

import pytest
from wagtail.models import Locale

from cms.digests.models import DigestPage
from cms.papers.models import Paper, PaperAuthor
from cms.papers.one_line import has_breaking_characters
from sync import selectors, tasks
from sync.models import PaperChange, PaperSyncState, SyncRun

pytestmark = pytest.mark.django_db


def paper(short_name: str) -> Paper:
    return DigestPage.objects.get(locale__language_code="en", short_name=short_name).paper


def api_paper(client, short_name: str, language: str) -> dict:
    en = DigestPage.objects.get(locale__language_code="en", short_name=short_name)
    page = en.get_translation(Locale.objects.get(language_code=language))
    response = client.get(f"/api/v2/pages/{page.pk}/")
    assert response.status_code == 200
    return response.json()["paper"]


def test_names_from_dblp_alone_are_cited_as_people(upstream, client):
    """NSDI papers have no DOI: their authors come from DBLP, which names each one whole. They
    were cited as organisations (BibTeX `{Daniele De Sensi}`, CSL `literal`)."""
    tasks.sync_all.delay().get()

    swing = paper("Swing")
    assert [(a.given, a.family) for a in swing.authors.all()] == [
        ("Daniele", "De Sensi"),
        ("Tommaso", "Bonato"),
        ("Torsten", "Hoefler"),
    ]
    cite = f"/api/v2/papers/{swing.pk}/cite/"
    bibtex = client.get(cite, {"format": "bibtex"}).content.decode()
    assert "{De Sensi}, Daniele and Bonato, Tommaso and Hoefler, Torsten" in bibtex
    csl = client.get(cite, {"format": "csl-json"}).json()[0]
    assert csl["author"][0] == {"family": "De Sensi", "given": "Daniele"}
    text = client.get(cite, {"format": "text", "style": "ieee"}).content.decode()
    assert text.startswith("D. De Sensi, T. Bonato, and T. Hoefler")


def test_sync_all_fills_papers_from_every_source(upstream, client):
    assert tasks.sync_all.delay().get().startswith("started run")

    bytescale = paper("ByteScale")
    authors = list(bytescale.authors.all())
    assert [a.name for a in authors] == ["Hao Ge", "Junda Feng", "Qi Huang", "Xin Liu"]
    assert authors[0].orcid == "0000-0002-1825-0097"  # Crossref wins for ORCID
    assert authors[3].orcid == "0000-0003-1234-5670"  # ...and OpenAlex fills what it lacks
    assert authors[0].affiliations == ["Peking University"]
    assert (authors[0].given, authors[0].family) == ("Hao", "Ge")
    assert bytescale.doi == "10.1145/3718958.3750471"
    assert bytescale.abstract.startswith("Scaling long-context training")
    assert bytescale.ids == {
        "doi": "10.1145/3718958.3750471",
        "dblp_key": "conf/sigcomm/GeFHL25",
        "openalex_id": "W4401234501",
        "semantic_scholar_id": "3c1f0e2a9b7d4c5e8f6a1b2c3d4e5f6a7b8c9d01",
        "arxiv_id": "2502.21231",
    }
    assert "title" not in bytescale.provenance  # DBLP agrees with the seed: nothing written
    assert bytescale.provenance["authors"]["source"] == "dblp"
    assert bytescale.provenance["abstract"]["source"] == "crossref"
    assert bytescale.provenance["orcid"]["source"] == "crossref"

    # NSDI: no DOI anywhere; matched by title/year/author, and the arXiv preprint is refused.
    swing = paper("Swing")
    assert swing.doi == ""
    assert swing.dblp_key == "conf/nsdi/SensiBH24"
    assert swing.openalex_id == "W4396000002"
    assert swing.arxiv_id == "2401.09356"
    assert [a.affiliations for a in swing.authors.all()] == [
        ["Sapienza University of Rome"],
        ["ETH Zurich"],
        ["ETH Zurich"],
    ]
    assert swing.abstract.startswith("Allreduce is a bandwidth-bound collective;")  # S2 > OpenAlex

    run = SyncRun.objects.get(kind=SyncRun.Kind.ALL)
    assert run.status == SyncRun.Status.FINISHED and run.finished_at is not None
    assert run.papers_total == Paper.objects.count()
    # ByteScale, Falcon, Crux (SIGCOMM), Swing, Acme (NSDI) are in the recorded answers.
    assert run.papers_matched == run.papers_changed == 5
    assert PaperChange.objects.filter(run=run, paper=bytescale, field="authors").exists()
    assert not PaperSyncState.objects.filter(in_flight=True).exists()
    # Batching: far fewer requests than papers times sources.
    assert sum(run.requests.values()) <= 1.5 * Paper.objects.count()
    assert run.requests["crossref"] == 1  # all DOIs (found on DBLP) in one filter request

    for language in ("en", "zh-hant"):
        shown = api_paper(client, "ByteScale", language)
        assert [a["name"] for a in shown["authors"]] == [
            "Hao Ge",
            "Junda Feng",
            "Qi Huang",
            "Xin Liu",
        ]
        assert shown["provenance"]["authors"]["source"] == "dblp"


def test_a_second_sync_that_finds_nothing_new_writes_nothing(upstream):
    tasks.sync_all.delay().get()
    before = {p.pk: p.updated_at for p in Paper.objects.all()}
    changes = PaperChange.objects.count()
    tasks.sync_all.delay().get()
    assert {p.pk: p.updated_at for p in Paper.objects.all()} == before
    assert PaperChange.objects.count() == changes
    latest = SyncRun.objects.filter(kind=SyncRun.Kind.ALL).first()
    assert latest.papers_changed == 0 and latest.fields_changed == 0


def test_a_locked_title_survives_a_sync_that_brings_another(upstream, client):
    falcon = paper("Falcon")
    tasks.sync_paper.delay(falcon.pk).get()
    falcon.refresh_from_db()
    falcon.title = "Falcon (editor's title)"
    falcon.locked_fields = ["title"]
    falcon.save()
    PaperAuthor.objects.filter(paper=falcon).delete()

    def retitle(source, data):
        if source == "dblp":
            for hit in data["result"]["hits"]["hit"]:
                hit["info"]["title"] = hit["info"]["title"].replace("Falcon:", "FALCON 2:")
        return data

    upstream.transform = retitle
    assert tasks.sync_paper.delay(falcon.pk).get() == "changed"
    falcon.refresh_from_db()
    assert falcon.title == "Falcon (editor's title)"
    assert falcon.authors.count() == 3  # found again by its DBLP key; unlocked fields synced
    assert "title" not in falcon.provenance
    for language in ("en", "zh-hant"):
        assert api_paper(client, "Falcon", language)["title"] == "Falcon (editor's title)"

    falcon.locked_fields = []
    falcon.save()
    tasks.sync_paper.delay(falcon.pk).get()
    falcon.refresh_from_db()
    assert falcon.title.startswith("FALCON 2:")  # the same sync without the lock does write it
    assert falcon.provenance["title"]["source"] == "dblp"


def test_control_characters_a_source_sends_are_not_stored(upstream):
    """Titles and names are one line (cms.papers.one_line): a bell or a C1 control character in
    a source's record is cleaned by the sync's writing service, never stored."""
    falcon = paper("Falcon")
    title = falcon.title
    PaperAuthor.objects.filter(paper=falcon).delete()

    def garble(source, data):
        if source == "dblp":
            for hit in data["result"]["hits"]["hit"]:
                info = hit["info"]
                info["title"] = info["title"].replace("Falcon:", "Falcon:\x07\x9b")
                authors = info.get("authors", {}).get("author", [])
                for author in [authors] if isinstance(authors, dict) else authors:
                    author["text"] = author["text"].replace(" ", " \x1b[2J", 1)
        return data

    upstream.transform = garble
    tasks.sync_paper.delay(falcon.pk).get()

    falcon.refresh_from_db()
    names = [author.name for author in falcon.authors.all()]
    assert falcon.title == title
    assert names[:2] == ["Arjun [2JSinghvi", "Nandita [2JDukkipati"]
    assert not any(has_breaking_characters(text) for text in [falcon.title, *names])


def test_zh_hant_follows_shared_metadata_without_a_translator(
    upstream, client, django_capture_on_commit_callbacks
):
    zh_before = api_paper(client, "Crux", "zh-hant")
    assert zh_before["authors"] == []
    with django_capture_on_commit_callbacks(execute=True):  # commit hooks: API cache version
        tasks.sync_paper.delay(paper("Crux").pk).get()
    zh_after = api_paper(client, "Crux", "zh-hant")
    assert [a["name"] for a in zh_after["authors"]] == ["Jiamin Cao", "Yu Guan", "Kun Qian"]
    en_after = api_paper(client, "Crux", "en")
    # The same paper in both; only the venue's name is in each page's language.
    assert zh_after["venue"]["name"] == "ACM SIGCOMM 研討會"
    assert en_after["venue"]["name"] == "ACM SIGCOMM Conference"
    assert {**zh_after, "venue": None} == {**en_after, "venue": None}


def test_only_one_sync_all_runs_at_a_time(upstream):
    running = SyncRun.objects.create(kind=SyncRun.Kind.ALL, trigger="elsewhere")
    assert tasks.sync_all.delay().get() == "already-running"
    assert SyncRun.objects.filter(kind=SyncRun.Kind.ALL).count() == 1
    running.status = SyncRun.Status.FINISHED
    running.save()
    assert tasks.sync_all.delay().get().startswith("started run")


def test_discovery_offers_missing_papers_and_publishes_nothing(upstream):
    papers_before = Paper.objects.count()
    assert tasks.discover.delay("SIGCOMM", 2025).get() == "ok: 1 new candidates"
    from sync.models import DiscoveryCandidate

    candidate = DiscoveryCandidate.objects.get()
    assert (
        candidate.title
        == "A Measurement Study of Optical Circuit Reconfiguration in Training Clusters"
    )
    assert candidate.authors == ["Wei Wang"]
    assert Paper.objects.count() == papers_before
    assert tasks.discover.delay("SIGCOMM", 2025).get() == "ok: 0 new candidates"  # idempotent


def test_a_run_batches_each_year_with_its_venues_interleaved():
    rows = [
        (1, 2025, "SIGCOMM"),
        (2, 2024, "NSDI"),
        (3, 2024, "SIGCOMM"),
        (4, 2024, "NSDI"),
        (5, 2024, "SIGCOMM"),
        (6, 2024, "ISCA"),
        (7, 2025, "NSDI"),
    ]
    # 2024 first: NSDI, ISCA and SIGCOMM take turns, so a batch of any size has work for the
    # sources that look papers up by DOI and for those that search USENIX titles.
    assert selectors.batch_order(rows) == [6, 2, 3, 4, 5, 7, 1]


def test_the_light_queries_say_what_the_papers_do():
    Paper.objects.filter(pk=paper("ByteScale").pk).update(doi="10.1145/3718958.3750471")
    papers = Paper.objects.prefetch_related("authors").order_by("pk")
    PaperAuthor.objects.create(paper=papers[0], name="Second Author", sort_order=5)
    PaperAuthor.objects.create(paper=papers[0], name="First Author", sort_order=1)
    ids = [p.pk for p in papers]
    light = sorted(selectors.paper_queries(ids), key=lambda q: q.paper_id)
    assert light == [
        selectors.paper_query(p) for p in Paper.objects.prefetch_related("authors").order_by("pk")
    ]
    assert light[0].first_author == "First Author"
    assert any(q.doi == "10.1145/3718958.3750471" and q.ids["doi"] == q.doi for q in light)


def test_papers_the_sync_writes_are_purged_from_the_frontend_cache_after_commit(
    upstream, settings, django_capture_on_commit_callbacks
):
    from tests.ops import purge_recorder

    settings.WAGTAILFRONTENDCACHE = {
        "recording": {"BACKEND": "tests.ops.purge_recorder.RecordingBackend"}
    }
    purge_recorder.purged_urls.clear()
    crux = DigestPage.objects.get(locale__language_code="en", short_name="Crux")
    chinese = crux.get_translation(Locale.objects.get(language_code="zh-hant"))

    with django_capture_on_commit_callbacks() as callbacks:
        assert tasks.sync_paper.delay(crux.paper_id).get() == "changed"
    assert purge_recorder.purged_urls == []  # nothing before the commit
    for callback in callbacks:
        callback()

    purged = set(purge_recorder.purged_urls)
    purge_recorder.purged_urls.clear()
    assert {
        f"http://testserver/api/v2/papers/{crux.paper_id}/",
        f"http://testserver/api/v2/pages/{crux.pk}/",
        f"http://testserver/api/v2/pages/{chinese.pk}/",
    } <= purged


def test_a_paper_deleted_while_the_sources_answer_is_left_out(upstream, monkeypatch):
    """A batch loads its papers a write chunk at a time, once their answers are in: one deleted
    in between is skipped, and every other paper is still written."""
    from sync import services
    from sync.fetching import Fetch

    gone = paper("ByteScale")

    class DeletedMeanwhile(Fetch):
        def __iter__(self):
            # An editor detaches the paper from its digests and deletes it, after the sources
            # were asked about it.
            DigestPage.objects.filter(paper=gone).update(paper=None)
            Paper.objects.filter(pk=gone.pk).delete()
            yield from super().__iter__()

    monkeypatch.setattr(services, "Fetch", DeletedMeanwhile)
    ids = list(Paper.objects.values_list("pk", flat=True))
    outcome = services.sync_batch(paper_ids=ids, run=None)
    assert outcome.skipped == 1 and gone.pk not in outcome.plans
    assert len(outcome.plans) == len(ids) - 1 and outcome.changed > 0
    synced = PaperSyncState.objects.filter(last_synced_at__isnull=False)
    assert set(synced.values_list("paper_id", flat=True)) == set(ids) - {gone.pk}


def test_a_discovery_stopped_by_its_time_limit_reads_failed_not_running(upstream, monkeypatch):
    """Only a source's error ended a discovery's run: one stopped otherwise (its time limit, a
    bug) read "Running" for ever, as no stale-run check looks at discoveries."""
    from celery.exceptions import SoftTimeLimitExceeded

    from sync import discovery

    def stopped(**kwargs):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(discovery, "discover_candidates", stopped)
    with pytest.raises(SoftTimeLimitExceeded):
        tasks.discover.apply(args=["SIGCOMM", 2025], throw=True)
    run = SyncRun.objects.get(kind=SyncRun.Kind.DISCOVER)
    assert run.status == SyncRun.Status.FAILED and run.finished_at and run.error_count == 1
    assert run.errors[0]["message"] == "The discovery stopped before it ended (its time limit)."
