"""Update notices (retractions, corrections, expressions of concern) and the version of record,
read from recorded Crossref and OpenAlex answers and synced against the local stand-in."""

from __future__ import annotations

import datetime
from collections import Counter

import pytest
import requests
from django.core import mail

from cms.digests.models import DigestPage
from cms.ops import background
from cms.papers.models import Paper, PaperNotice
from cms.papers.signals import notices_added, papers_changed
from cms.translation.policy.roles import EDITORS, ensure_roles
from sync import lookup, services, tasks
from sync.merge import OPENALEX_RETRACTION, plan_changes, plan_notices
from sync.models import PaperChange, SyncRun
from sync.sources.base import NoticeRecord, PaperRecord
from sync.sources.crossref import notices_of
from tests.standin import Canned
from tests.support.upstream import serving_upstream, source
from tests.support.users import member

from .recorded import FIXTURES, load, notices_catalog, notices_fixture, recorded_notices

BYTESCALE = "10.1145/3718958.3750471"
FALCON = "10.1145/3718958.3754353"
CRUX = "10.1145/3651890.3672239"
RETRACTION = "10.1145/3718958.3799101"
VERSION_OF_RECORD = "10.1145/3651890.3672277"
ARXIV_DOI = "10.48550/arxiv.2406.04567"
TECHRXIV = "10.36227/techrxiv.171234567.71234567/v1"
HTML_502 = (FIXTURES / "errors" / "502.html").read_bytes()
# Shaped as the recorded retraction of tests/fixtures/crossref/works_notices.json.
FALCON_RETRACTION = {
    "DOI": "10.1145/3718958.3799104",
    "type": "retraction",
    "label": "Retraction",
    "source": "retraction-watch",
    "updated": {
        "date-parts": [[2026, 2, 2]],
        "date-time": "2026-02-02T00:00:00Z",
        "timestamp": 1769990400000,
    },
    "record-id": "61240",
}


def crossref_work(doi: str) -> dict:
    return next(work for work in notices_fixture() if work["DOI"] == doi)


def openalex_work(work_id: str) -> dict:
    results = load("openalex/works_notices.json")["results"]
    return next(work for work in results if work["id"].endswith(work_id))


# -- reading the recorded answers --------------------------------------------------------------


@pytest.mark.usefixtures("fresh_politeness")
class TestParsing:
    def test_a_retraction_from_retraction_watch_and_the_publisher(self):
        record = source("crossref").parse_work(crossref_work(BYTESCALE))
        assert record.notices == [
            NoticeRecord(
                doi=RETRACTION,
                type="retraction",
                label="Retraction",
                source="publisher",
                record_id="",
                date=datetime.date(2025, 11, 3),
            ),
            NoticeRecord(
                doi=RETRACTION,
                type="retraction",
                label="Retraction",
                source="retraction-watch",
                record_id="61234",
                date=datetime.date(2025, 11, 3),
            ),
        ]

    def test_a_publisher_correction(self):
        (notice,) = source("crossref").parse_work(crossref_work(FALCON)).notices
        assert (notice.type, notice.source, notice.record_id) == ("correction", "publisher", "")
        assert notice.doi == "10.1145/3718958.3799102"

    def test_an_expression_of_concern_without_source_is_the_publishers(self):
        (notice,) = source("crossref").parse_work(crossref_work(CRUX)).notices
        assert (notice.type, notice.label) == ("expression_of_concern", "Expression of Concern")
        assert notice.source == "publisher"  # older answers carry no `source`
        assert notice.date == datetime.date(2025, 1, 20)

    def test_a_work_nothing_updates_has_no_notices_rather_than_unknown_ones(self):
        work = load("crossref/works_sigcomm.json")["message"]["items"][0]
        assert source("crossref").parse_work(work).notices == []

    def test_types_are_normalised_and_unreadable_entries_skipped(self):
        notices = notices_of(
            [
                {
                    "DOI": "10.1/A",
                    "type": "Partial-Retraction",
                    "updated": {"date-parts": [[2024]]},
                },
                {"DOI": "10.1/b", "type": "retraction", "updated": {"date-parts": [[2024, 2, 30]]}},
                {"DOI": "10.1/c", "label": "Correction"},  # no type
                "retraction",
                {"DOI": "10.1/b", "type": "retraction"},  # the same notice twice
                {"DOI": "10.1/d", "type": "erratum", "record-id": 17, "source": "Retraction-Watch"},
            ]
        )
        assert [(n.doi, n.type, n.label, n.source, n.record_id, n.date) for n in notices] == [
            ("10.1/a", "partial_retraction", "Partial retraction", "publisher", "", None),
            ("10.1/b", "retraction", "Retraction", "publisher", "", None),  # 30 February
            ("10.1/d", "erratum", "Erratum", "retraction-watch", "17", None),
        ]
        assert notices_of(None) == [] and notices_of({"type": "retraction"}) == []

    def test_a_preprint_names_its_version_of_record_and_the_published_work_its_preprint(self):
        crossref = source("crossref")
        preprint = crossref.parse_work(crossref_work(TECHRXIV))
        assert preprint.is_preprint
        assert preprint.version_of_record_doi == VERSION_OF_RECORD  # from a doi.org URL
        published = crossref.parse_work(crossref_work(VERSION_OF_RECORD))
        assert not published.is_preprint
        assert published.preprint_doi == ARXIV_DOI  # the first DOI listed, bare
        assert published.version_of_record_doi == ""

    def test_openalex_flag_and_locations(self):
        openalex = source("openalex")
        bytescale = openalex.parse_work(openalex_work("W4401234501"))
        assert bytescale.is_retracted is True
        assert bytescale.preprint_doi == "10.48550/arxiv.2502.21231"  # its submitted version
        assert bytescale.version_of_record_doi == ""
        preprint = openalex.parse_work(openalex_work("W4399123401"))
        assert (preprint.is_preprint, preprint.is_retracted) == (True, False)
        assert preprint.version_of_record_doi == VERSION_OF_RECORD  # its published location
        assert preprint.preprint_doi == ""
        # Recorded answers from before the field: no flag at all, not "false".
        older = load("openalex/works_by_doi.json")["results"][0]
        assert openalex.parse_work(older).is_retracted is None
        assert openalex.parse_work(older).preprint_doi == ""  # locations without `version`


# -- planning ----------------------------------------------------------------------------------


def crossref_record(*notices: NoticeRecord) -> PaperRecord:
    return PaperRecord(source="crossref", title="T", notices=list(notices))


def openalex_record(retracted: bool | None) -> PaperRecord:
    return PaperRecord(source="openalex", title="T", is_retracted=retracted)


CORRECTION = NoticeRecord("10.1/c", "correction", "Correction", "publisher")
RETRACTED = NoticeRecord("10.1/r", "retraction", "Retraction", "retraction-watch", "9")


class TestPlanning:
    def plain(self, notice: NoticeRecord) -> dict:
        return {
            "doi": notice.doi,
            "type": notice.type,
            "label": notice.label,
            "source": notice.source,
            "record_id": notice.record_id,
            "date": None,
        }

    def test_crossref_replaces_what_it_gave_before(self):
        current = [self.plain(CORRECTION)]
        change = plan_notices(current, {"crossref": crossref_record(RETRACTED)})
        assert change.source == "crossref"
        assert change.new == [self.plain(RETRACTED)]  # the correction was withdrawn upstream
        assert plan_notices(current, {"crossref": crossref_record(CORRECTION)}) is None

    def test_a_failed_or_empty_crossref_answer_removes_nothing(self):
        current = [self.plain(CORRECTION)]
        records = {"crossref": crossref_record()}
        assert plan_notices(current, records, {"crossref"}) is None
        assert plan_notices(current, {}) is None  # Crossref did not find the work
        silent = PaperRecord(source="crossref", title="T")  # notices None: says nothing
        assert plan_notices(current, {"crossref": silent}) is None

    def test_the_openalex_flag_only_speaks_while_crossref_names_no_retraction(self):
        flagged = plan_notices([], {"openalex": openalex_record(True)})
        assert flagged.source == "openalex" and flagged.new == [OPENALEX_RETRACTION]
        assert plan_notices([OPENALEX_RETRACTION], {"openalex": openalex_record(None)}) is None
        assert plan_notices([OPENALEX_RETRACTION], {}, {"openalex"}) is None
        cleared = plan_notices([OPENALEX_RETRACTION], {"openalex": openalex_record(False)})
        assert cleared.new == []
        both = {"crossref": crossref_record(RETRACTED), "openalex": openalex_record(True)}
        replaced = plan_notices([OPENALEX_RETRACTION], both)
        assert replaced.new == [self.plain(RETRACTED)]  # Crossref's own says more
        corrected = {"crossref": crossref_record(CORRECTION), "openalex": openalex_record(True)}
        assert plan_notices([], corrected).new == [OPENALEX_RETRACTION, self.plain(CORRECTION)]


def test_the_version_of_record_and_preprint_dois_never_touch_a_locked_field():
    from sync.lookup import EMPTY_PAPER

    records = {
        "crossref": PaperRecord(
            source="crossref",
            title="T",
            doi=TECHRXIV,
            is_preprint=True,
            version_of_record_doi=VERSION_OF_RECORD,
            notices=[RETRACTED],
        )
    }
    planned = {c.field: c for c in plan_changes(EMPTY_PAPER, records, locked=set())}
    assert (planned["doi"].new, planned["preprint_doi"].new) == (VERSION_OF_RECORD, TECHRXIV)
    locked = {c.field for c in plan_changes(EMPTY_PAPER, records, locked={"doi", "preprint_doi"})}
    assert {"doi", "preprint_doi"}.isdisjoint(locked)
    assert "notices" in locked  # nobody sets notices by hand: they are never locked


# -- syncing -----------------------------------------------------------------------------------


def paper(short_name: str) -> Paper:
    return DigestPage.objects.get(locale__language_code="en", short_name=short_name).paper


def notices(short_name: str) -> list[tuple[str, str, str]]:
    return [
        (n.update_type, n.source, n.notice_doi)
        for n in PaperNotice.objects.filter(paper=paper(short_name)).order_by("source", "pk")
    ]


class Heard:
    """What `papers_changed` and `notices_added` said during a sync."""

    def __init__(self):
        self.fields: dict[int, list[str]] = {}
        self.added: list[list[int]] = []

    def changed(self, sender, paper_ids, fields, **kwargs):
        for pk in paper_ids:
            self.fields.setdefault(pk, []).extend(fields.get(pk, []))

    def notices(self, sender, notice_ids, **kwargs):
        self.added.append(list(notice_ids))


@pytest.fixture
def heard():
    listener = Heard()
    papers_changed.connect(listener.changed)
    notices_added.connect(listener.notices)
    yield listener
    papers_changed.disconnect(listener.changed)
    notices_added.disconnect(listener.notices)


@pytest.fixture
def sync(django_capture_on_commit_callbacks):
    """Sync every paper as beat does; the run's requests per source."""

    def run() -> Counter:
        with django_capture_on_commit_callbacks(execute=True):
            assert tasks.sync_all.delay().get().startswith("started run")
        return Counter(SyncRun.objects.filter(kind=SyncRun.Kind.ALL).first().requests)

    return run


@pytest.mark.django_db
def test_a_notice_switched_on_upstream_is_stored_after_the_next_sync_and_off_removed(
    upstream, sync, heard
):
    first = sync()
    assert not PaperNotice.objects.exists()  # no paper has a notice yet
    assert not any("notices" in fields for fields in heard.fields.values())

    upstream.catalog.set_notices(BYTESCALE, recorded_notices(BYTESCALE))
    upstream.catalog.set_notices(FALCON, recorded_notices(FALCON))
    heard.__init__()
    second = sync()
    assert notices("ByteScale") == [
        ("retraction", "publisher", RETRACTION),
        ("retraction", "retraction-watch", RETRACTION),
    ]
    assert notices("Falcon") == [("correction", "publisher", "10.1145/3718958.3799102")]
    watch = PaperNotice.objects.get(source="retraction-watch")
    assert (watch.record_id, watch.updated_on, watch.label) == (
        "61234",
        datetime.date(2025, 11, 3),
        "Retraction",
    )
    assert watch.first_seen_at and watch.acknowledged_at is None and watch.notified_at is None
    bytescale, falcon = paper("ByteScale"), paper("Falcon")
    assert heard.fields[bytescale.pk] == ["notices"]  # the API cache and webhooks hear of it
    assert heard.fields[falcon.pk] == ["notices"]
    assert len(heard.added) == 1  # once, after the commit, with every new notice
    assert sorted(heard.added[0]) == sorted(PaperNotice.objects.values_list("pk", flat=True))
    change = PaperChange.objects.get(paper=bytescale, field="notices")
    assert change.source == "crossref" and change.old == []
    assert [n["source"] for n in change.new] == ["publisher", "retraction-watch"]
    assert bytescale.provenance["notices"]["source"] == "crossref"

    # Notices come in the answers the sync asks for anyway: no request more. (The first sync
    # also asks Semantic Scholar about a paper by title whose id it then learns.)
    assert sum(second.values()) <= 2 * sum(first.values())
    assert (second["crossref"], second["openalex"]) == (first["crossref"], first["openalex"])

    # An editor acknowledged the correction; the retraction is withdrawn upstream.
    PaperNotice.objects.filter(source="publisher", update_type="correction").update(
        acknowledged_at=datetime.datetime(2026, 1, 5, tzinfo=datetime.UTC)
    )
    upstream.catalog.set_notices(BYTESCALE, [])
    heard.__init__()
    third = sync()
    assert notices("ByteScale") == []
    assert notices("Falcon") == [("correction", "publisher", "10.1145/3718958.3799102")]
    assert PaperNotice.objects.get().acknowledged_at is not None  # kept rows keep theirs
    assert heard.fields[bytescale.pk] == ["notices"] and falcon.pk not in heard.fields
    assert heard.added == []  # nothing new to tell editors of
    assert third == second


@pytest.mark.django_db
def test_a_failed_crossref_answer_removes_nothing(upstream, sync, settings):
    upstream.catalog.set_notices(BYTESCALE, recorded_notices(BYTESCALE))
    upstream.catalog.set_notices(CRUX, recorded_notices(CRUX))
    sync()
    before = notices("ByteScale") + notices("Crux")
    assert len(before) == 3
    assert ("expression_of_concern", "publisher", "10.1145/3651890.3799103") in before

    upstream.catalog.set_notices(BYTESCALE, [])
    upstream.catalog.set_notices(CRUX, [])
    settings.SYNC_RETRIES = 0
    upstream.fail_next("crossref", *[Canned(502, HTML_502, "text/html")] * 50)
    sync()
    assert any("HTTP 502" in error["message"] for error in SyncRun.objects.first().errors)
    assert notices("ByteScale") + notices("Crux") == before


@pytest.mark.django_db
def test_the_openalex_flag_stands_in_for_a_retraction_crossref_does_not_hold(upstream, sync):
    upstream.catalog.set_retracted(FALCON, True)
    sync()
    assert notices("Falcon") == [("retraction", "openalex", "")]
    label = PaperNotice.objects.get(paper=paper("Falcon")).label
    assert label == OPENALEX_RETRACTION["label"]

    # Crossref comes to list the retraction itself: its notice replaces OpenAlex's flag.
    upstream.catalog.set_notices(FALCON, [FALCON_RETRACTION])
    sync()
    assert notices("Falcon") == [("retraction", "retraction-watch", "10.1145/3718958.3799104")]

    # Crossref withdraws it while OpenAlex still flags the paper: the flag speaks again, and
    # goes when OpenAlex clears it.
    upstream.catalog.set_notices(FALCON, [])
    sync()
    assert notices("Falcon") == [("retraction", "openalex", "")]
    upstream.catalog.set_retracted(FALCON, False)
    sync()
    assert notices("Falcon") == []


@pytest.mark.django_db
def test_the_writer_keeps_acknowledged_rows_and_follows_a_changed_date(upstream, sync):
    upstream.catalog.set_notices(FALCON, recorded_notices(FALCON))
    sync()
    row = PaperNotice.objects.get()
    row.acknowledged_at = row.notified_at = datetime.datetime(2026, 1, 5, tzinfo=datetime.UTC)
    row.save()
    moved = [{**recorded_notices(FALCON)[0], "updated": {"date-parts": [[2025, 10, 15]]}}]
    upstream.catalog.set_notices(FALCON, moved)
    sync()
    kept = PaperNotice.objects.get()
    assert kept.pk == row.pk and kept.updated_on == datetime.date(2025, 10, 15)
    assert kept.acknowledged_at == kept.notified_at == row.acknowledged_at


# -- the version of record ---------------------------------------------------------------------


@pytest.fixture
def notices_upstream(settings):
    yield from serving_upstream(notices_catalog(), settings)


@pytest.mark.django_db
def test_a_paper_added_by_arxiv_id_gets_its_version_of_record(notices_upstream):
    found = lookup.look_up("arXiv:2406.04567")
    assert (found.venue, found.year) == ("SIGCOMM", 2024)
    fields = {change.field: change for change in found.changes}
    assert fields["doi"].new == VERSION_OF_RECORD
    assert fields["preprint_doi"].new == ARXIV_DOI
    assert fields["arxiv_id"].new == "2406.04567"
    shown = {row[0]: row for row in lookup.shown_fields(found)}
    assert shown["Preprint DOI"][1:] == (ARXIV_DOI, "Crossref")

    created, was_new = services.paper_create_from_lookup(found=found)
    assert was_new
    created.refresh_from_db()
    assert (created.doi, created.preprint_doi, created.arxiv_id) == (
        VERSION_OF_RECORD,
        ARXIV_DOI,
        "2406.04567",
    )
    assert created.venue == "SIGCOMM" and created.abstract.startswith("Lossy RDMA fabrics")
    assert created.provenance["doi"]["source"] == "crossref"
    assert created.provenance["preprint_doi"]["source"] == "crossref"
    assert not created.notices.exists()

    # The arXiv id again finds the paper added, as does its published DOI.
    assert lookup.look_up("https://arxiv.org/abs/2406.04567v1").existing_id == created.pk
    assert lookup.look_up(VERSION_OF_RECORD).existing_id == created.pk


@pytest.mark.django_db
def test_a_preprint_server_doi_is_added_as_its_published_version(notices_upstream):
    found = lookup.look_up(f"https://doi.org/{TECHRXIV}")
    fields = {change.field: change.new for change in found.changes}
    assert (found.venue, found.year) == ("SIGCOMM", 2024)
    assert fields["doi"] == VERSION_OF_RECORD
    assert fields["preprint_doi"] == TECHRXIV  # the preprint the editor had in hand


@pytest.mark.django_db
def test_a_paper_added_with_notices_has_them_from_the_start(notices_upstream):
    hpn = "10.1145/3651890.3672265"  # a paper the seed lacks
    notices_upstream.catalog.set_notices(hpn, recorded_notices(CRUX))
    found = lookup.look_up(hpn)
    shown = {label: (value, source) for label, value, source in lookup.shown_fields(found)}
    assert shown["Update notices"] == (
        "Expression of Concern (publisher, 2025-01-20) 10.1145/3651890.3799103",
        "Crossref",
    )
    created, _ = services.paper_create_from_lookup(found=found)
    assert [
        (n.update_type, n.source, n.first_seen_at is not None) for n in created.notices.all()
    ] == [("expression_of_concern", "publisher", True)]


@pytest.mark.django_db
def test_the_stand_in_finds_the_notices_of_dois_as_crossref_does(notices_upstream):
    """`filter=updates:A,updates:B`, the fallback docs/sync.md names should `updated-by` stop
    being indexed: the notices whose `update-to` names A or B."""

    answer = requests.get(
        f"{notices_upstream.url('crossref')}/works",
        params={"filter": f"updates:{BYTESCALE},updates:{CRUX}", "select": "DOI,update-to"},
        timeout=5,
    ).json()
    items = answer["message"]["items"]
    assert sorted(item["DOI"] for item in items) == [
        "10.1145/3651890.3799103",
        RETRACTION,
    ]
    assert {update["DOI"] for item in items for update in item["update-to"]} == {BYTESCALE, CRUX}


@pytest.mark.django_db
def test_editors_are_mailed_once_of_each_notice_a_sync_brings(upstream, sync, monkeypatch):
    """The whole chain: a notice switched on upstream, the sync stores it, and editors hear of
    it by e-mail after the commit; the next sync, finding the same notice, mails nothing."""
    monkeypatch.setattr(background, "run_in_background", background.run_here)
    ensure_roles()
    member(EDITORS, "editor", email="editor@example.com")
    sync()
    assert mail.outbox == []

    upstream.catalog.set_notices(FALCON, recorded_notices(FALCON))
    sync()
    (message,) = mail.outbox
    assert message.to == ["editor@example.com"]
    assert paper("Falcon").title in message.body and "10.1145/3718958.3799102" in message.body

    sync()
    assert len(mail.outbox) == 1
