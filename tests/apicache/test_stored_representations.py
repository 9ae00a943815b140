"""Listings sent from stored items are Wagtail's bytes, before and after every kind of write.

Each test compares a listing served from stored items with the same listing built by Wagtail's
serializer alone (API_STORED_REPRESENTATIONS off), after the write under test: a write that
forgot to make an item stale leaves the stored listing behind the built one.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from wagtail.models import Locale, Page, PageViewRestriction, Site
from wagtail_localize.models import StringTranslation, Translation

from cms.apicache import listing_plans
from cms.apicache.models import StoredRepresentation
from cms.apicache.representations import invalidate_pages, item_format, store, with_stored
from cms.digests.models import DigestPage, TopicPage
from cms.digests.visibility import tree_facts
from cms.papers.models import Paper
from cms.papers.signals import papers_changed
from tests.digests.conftest import SeedCopy
from tests.digests.test_api_visibility import _hide_one_of_each_kind

pytestmark = pytest.mark.django_db

PAGES_URL = "/api/v2/pages/"
DIGESTS = {"type": "digests.DigestPage", "fields": "*", "limit": 100}
TOPICS = {"type": "digests.TopicPage", "fields": "*", "limit": 100}
LISTINGS = [
    {**DIGESTS, "locale": "en"},
    {**DIGESTS, "locale": "zh-hant"},
    {**TOPICS, "locale": "en"},
    {**TOPICS, "locale": "zh-hant"},
]


@pytest.fixture(autouse=True)
def uncached(settings):
    settings.API_RESPONSE_CACHE_SECONDS = 0
    cache.clear()


@pytest.fixture
def listing(client, settings) -> Callable[..., tuple[bytes, bytes]]:
    """GET a listing from stored items, then built by Wagtail alone: (stored, built) bytes."""

    def get(params: dict, **headers) -> tuple[bytes, bytes]:
        stored = client.get(PAGES_URL, params, HTTP_HOST="testserver", **headers)
        settings.API_STORED_REPRESENTATIONS = False
        built = client.get(PAGES_URL, params, HTTP_HOST="testserver", **headers)
        settings.API_STORED_REPRESENTATIONS = True
        assert stored.status_code == built.status_code == 200, stored.content
        return stored.content, built.content

    return get


def stored_bodies() -> int:
    return StoredRepresentation.objects.filter(body__isnull=False).count()


@pytest.mark.parametrize(
    "extra",
    [{}, {"offset": 3, "limit": 5}, {"order": "-title"}, {"search": "GPU"}, {"limit": 0}],
    ids=["all", "page", "ordered", "searched", "count only"],
)
@pytest.mark.parametrize(
    "params", LISTINGS, ids=["digests-en", "digests-zh", "topics-en", "topics-zh"]
)
def test_a_stored_listing_is_the_bytes_wagtail_builds(listing, params, extra):
    """With every kind of hidden page around (drafts, private, placeholders, aliases)."""
    _hide_one_of_each_kind()
    params = {**params, **extra}
    first, built = listing(params)  # builds and stores the items
    assert first == built
    filled = stored_bodies()
    assert filled == len(json.loads(first)["items"])
    again, built = listing(params)  # sends the stored items
    assert again == built
    assert stored_bodies() == filled


def test_items_are_stored_per_language_of_the_request(listing):
    """The API speaks the request's language (venue names are translated)."""
    params = {**DIGESTS, "locale": "en", "limit": 5}
    english, _ = listing(params)
    chinese, built = listing(params, HTTP_ACCEPT_LANGUAGE="zh-hant")
    assert chinese == built != english
    assert "研討會".encode() in chinese
    again, _ = listing(params)
    assert again == english


def test_a_stored_listing_costs_two_queries_whatever_its_limit(client, listing, shared_per_version):
    for limit in (5, 50):
        params = {**DIGESTS, "locale": "zh-hant", "limit": limit}
        listing(params)
        with CaptureQueriesContext(connection) as queries:
            response = client.get(PAGES_URL, params, HTTP_HOST="testserver")
        assert response.status_code == 200 and len(response.json()["items"]) == limit
        statements = [query["sql"] for query in queries if "SAVEPOINT" not in query["sql"]]
        assert len(statements) == 2, statements  # the count and the rows
        assert not [sql for sql in statements if "papers_paper" in sql]


def test_a_listing_whose_items_changed_costs_seven_queries_whatever_its_limit(
    client, shared_per_version
):
    """Count, rows; then the changed pages, their papers' parts, topics and translation
    statuses, and the store."""
    client.get(PAGES_URL, {**DIGESTS, "locale": "zh-hant", "limit": 1}, HTTP_HOST="testserver")
    counts = []
    for limit in (5, 50):
        params = {**DIGESTS, "locale": "zh-hant", "limit": limit}
        invalidate_pages(
            DigestPage.objects.filter(locale__language_code="zh-hant").values_list("pk", flat=True)
        )
        with CaptureQueriesContext(connection) as queries:
            response = client.get(PAGES_URL, params, HTTP_HOST="testserver")
        assert len(response.json()["items"]) == limit
        counts.append(len([q for q in queries if "SAVEPOINT" not in q["sql"]]))
    assert counts == [7, 7]


def test_a_listing_plan_is_kept_only_within_its_content_version(
    client, listing, shared_per_version, django_capture_on_commit_callbacks
):
    """The SQL of a listing is sent again for the same request shape (cms.apicache.
    listing_plans); it holds the tree's facts, so a change to them must not reuse it."""
    params = {**DIGESTS, "locale": "en"}
    first, _ = listing(params)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(PAGES_URL, params, HTTP_HOST="testserver").content
    assert again == first and len(queries) == 2
    assert len(listing_plans.plans.plans) == 1
    topic = en_digest().get_parent()
    with django_capture_on_commit_callbacks(execute=True):  # the version is bumped on commit
        PageViewRestriction.objects.create(page=topic, restriction_type=PageViewRestriction.LOGIN)
    tree_facts.forget()
    stored, built = listing(params)
    assert stored == built != first
    assert b'"short_name":"FabricPerf"' not in stored  # the private topic's digest is gone


def test_other_renderings_and_field_sets_are_wagtail_s_own(client, listing):
    listing({**DIGESTS, "locale": "en"})
    stored = stored_bodies()
    StoredRepresentation.objects.update(body='{"id":0}')  # would show if these read them
    for params, headers in [
        ({**DIGESTS, "locale": "en", "fields": "title,summary"}, {}),
        ({**DIGESTS, "locale": "en"}, {"HTTP_ACCEPT": "application/json; indent=4"}),
        ({**DIGESTS, "locale": "en", "site": "localhost"}, {}),
    ]:
        response = client.get(PAGES_URL, params, HTTP_HOST="testserver", **headers)
        assert response.status_code == 200
        assert b'{"id":0}' not in response.content.replace(b" ", b"").replace(b"\n", b"")
    assert stored > 0


def test_a_reader_who_passes_a_restriction_gets_wagtail_s_own(client, listing):
    topic = TopicPage.objects.filter(locale__language_code="en").first()
    private = topic.get_children().specific().first()
    PageViewRestriction.objects.create(page=private, restriction_type=PageViewRestriction.LOGIN)
    params = {**TOPICS, "locale": "en"}
    anonymous, _ = listing(params)
    client.force_login(get_user_model().objects.create_user("reader", password="x"))
    signed_in, built = listing(params)
    assert signed_in == built != anonymous  # the topic lists its private digest too


def test_a_site_root_served_twice_gets_wagtail_s_own(client, listing, settings):
    """Wagtail gives a page under a root two sites share the serving site's address, so items
    are stored only where one site serves the root."""
    default = Site.objects.get(is_default_site=True)
    params = {**DIGESTS, "locale": "en", "limit": 5}
    listing(params)
    Site.objects.create(hostname="mirror.example.org", port=80, root_page=default.root_page)
    StoredRepresentation.objects.exclude(body=None).update(body='{"id":0}')  # would show
    for host in ("mirror.example.org", "testserver"):
        stored = client.get(PAGES_URL, params, HTTP_HOST=host).content
        settings.API_STORED_REPRESENTATIONS = False
        built = client.get(PAGES_URL, params, HTTP_HOST=host).content
        settings.API_STORED_REPRESENTATIONS = True
        assert stored == built, host


def test_an_item_built_before_a_write_is_never_stored_after_it():
    """The reader's side of the protocol (cms.apicache.representations), for a page without
    a row and for a tombstone."""
    page = DigestPage.objects.filter(locale__language_code="en").first()
    StoredRepresentation.objects.filter(page=page).delete()  # as before the first listing
    rows = dict(
        (page_id, generation)
        for page_id, generation, _body, _format in with_stored(
            DigestPage.objects.filter(pk=page.pk), "en"
        )
    )
    assert rows == {page.pk: None}
    invalidate_pages([page.pk])  # a writer gets in between
    store("en", rows, {page.pk: "old"})
    assert StoredRepresentation.objects.get(page=page, language="en").body is None

    ((_id, generation, body, _format),) = with_stored(DigestPage.objects.filter(pk=page.pk), "en")
    assert body is None
    invalidate_pages([page.pk])
    store("en", {page.pk: generation}, {page.pk: "old"})
    assert StoredRepresentation.objects.get(page=page, language="en").body is None
    store("en", {page.pk: generation + 1}, {page.pk: "new"})  # read after the write
    assert StoredRepresentation.objects.get(page=page, language="en").body == "new"


# -- every write the API can show ----------------------------------------------------------


def en_digest() -> DigestPage:
    return DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")


def zh_digest() -> DigestPage:
    return en_digest().get_translation(Locale.objects.get(language_code="zh-hant")).specific


def publish_digest_title():
    page = en_digest()
    page.title = "A new title"
    page.save_revision().publish()


def rename_topic():
    topic = en_digest().get_parent().specific
    topic.title, topic.slug = "Renamed topic", "renamed-topic"
    topic.save_revision().publish()


def move_digest():
    page = en_digest()
    other = TopicPage.objects.filter(locale=page.locale).exclude(pk=page.get_parent().pk)[0]
    page.move(other, pos="last-child")


def unpublish_digest():
    en_digest().unpublish()


def restrict_digest():
    PageViewRestriction.objects.create(page=en_digest(), restriction_type=PageViewRestriction.LOGIN)


def delete_digest():
    en_digest().delete()


def edit_paper_in_admin():
    paper = en_digest().paper
    paper.title = "An edited paper title"
    paper.save()


def rename_an_affiliation():
    affiliation = en_digest().paper.affiliations.first()
    affiliation.name = "Another University"
    affiliation.save()


def sync_writes_papers():
    """A bulk writer (the sync worker): an UPDATE, then the signal it sends instead of post_save."""
    paper_id = en_digest().paper_id
    Paper.objects.filter(pk=paper_id).update(year=1999)
    papers_changed.send(sender=Paper, paper_ids=[paper_id])


def translator_saves_a_segment():
    page = zh_digest()
    string = StringTranslation.objects.filter(
        locale=page.locale, context__object_id=page.translation_key
    ).order_by("pk")[0]
    string.data = "改過的譯文"
    string.save()


def publish_a_new_summary():
    page = en_digest()
    page.summary = "A rewritten summary."
    page.save_revision().publish()


def translation_is_synced():
    """After the source's publish (above): the sync alone changes the translation's status."""
    Translation.objects.get(
        source__object_id=en_digest().translation_key, target_locale__language_code="zh-hant"
    ).source.update_from_db()


def name_the_latest_translator():
    person = get_user_model().objects.create_user(
        "lin", first_name="Mei", last_name="Lin", password="x"
    )
    page = zh_digest()
    string = StringTranslation.objects.filter(
        locale=page.locale, context__object_id=page.translation_key
    ).order_by("-updated_at", "-pk")[0]
    string.last_translated_by = person
    string.save()


def translator_changes_their_name():
    person = get_user_model().objects.get(username="lin")
    person.first_name = "May"
    person.save()


def site_moves_to_another_host():
    site = Site.objects.get(is_default_site=True)
    site.hostname, site.port = "digests.example.org", 443
    site.save()


WRITES = [
    publish_digest_title,
    rename_topic,
    move_digest,
    unpublish_digest,
    restrict_digest,
    delete_digest,
    edit_paper_in_admin,
    rename_an_affiliation,
    sync_writes_papers,
    translator_saves_a_segment,
    translation_is_synced,
    translator_changes_their_name,
    site_moves_to_another_host,
]
# Writes the public API must not show: a translator's unpublished work and staff names
# (translation_status holds published facts only, cms.translation.public_status).
UNPUBLISHED_WRITES = {translator_saves_a_segment, translator_changes_their_name}
PREPARATIONS = {
    translator_changes_their_name: name_the_latest_translator,
    translation_is_synced: publish_a_new_summary,
}


@pytest.mark.parametrize("write", WRITES, ids=[write.__name__ for write in WRITES])
def test_every_write_makes_the_items_it_changes_stale(listing, write):
    """Each write changes what some listing shows; every listing still equals Wagtail's."""
    PREPARATIONS.get(write, lambda: None)()
    before = [listing(params)[0] for params in LISTINGS]
    assert stored_bodies() > 0
    write()
    after = [listing(params) for params in LISTINGS]
    for (stored, built), params in zip(after, LISTINGS, strict=True):
        assert stored == built, params
    if write in UNPUBLISHED_WRITES:
        assert [stored for stored, _built in after] == before  # nothing public changed
    else:
        assert [stored for stored, _built in after] != before  # the write showed somewhere


def test_a_draft_keeps_the_stored_items(listing):
    """Saving a draft writes bookkeeping to the live row: nothing the API shows."""
    for params in LISTINGS:
        listing(params)
    stored = stored_bodies()
    page = en_digest()
    page.title = "An unpublished title"
    page.save_revision()
    assert stored_bodies() == stored
    stored_listing, built = listing({**DIGESTS, "locale": "en"})
    assert stored_listing == built and b"An unpublished title" not in built


def test_a_re_import_makes_the_items_it_changes_stale(listing, seed_path, tmp_path):
    """The import writes pages in bulk, without signals."""
    from cms.digests.importer import SeedImporter
    from cms.digests.seed import load_seed

    seed_copy = SeedCopy(seed_path, tmp_path)
    for params in LISTINGS:
        listing(params)
    digests = seed_copy.data["topics"][0]["digests"]
    digests[0]["summary"]["en"] = "Summary from a new seed."
    added = json.loads(json.dumps(digests[0]))  # a new digest in a topic already listed
    added["short_name"] = "AddedLater"
    added["title"] = {"en": "A digest added later", "zh-hant": "後來加入的摘要"}
    digests.append(added)
    SeedImporter(load_seed(seed_copy.write()), update=True).run()
    for params in LISTINGS:
        stored, built = listing(params)
        assert stored == built, params
    assert b"Summary from a new seed." in listing({**DIGESTS, "locale": "en"})[0]
    assert b"AddedLater" in listing({**TOPICS, "locale": "en"})[0]


def test_a_deleted_page_takes_its_rows_with_it():
    page = en_digest()
    invalidate_pages([page.pk])
    assert StoredRepresentation.objects.filter(page_id=page.pk).count() == 2
    Page.objects.get(pk=page.pk).delete()
    assert not StoredRepresentation.objects.filter(page_id=page.pk).exists()


def test_items_stored_by_other_code_are_built_again(listing):
    """A row records the format of the process that stored it (code, catalogs, settings)."""
    params = {**DIGESTS, "locale": "en", "limit": 5}
    listing(params)
    StoredRepresentation.objects.exclude(body=None).update(format="0ldc0de", body='{"id":0}')
    stored, built = listing(params)
    assert stored == built
    formats = set(StoredRepresentation.objects.exclude(body=None).values_list("format", flat=True))
    assert formats == {item_format()}


def test_the_format_follows_the_settings_items_are_built_with(settings):
    before = item_format()
    item_format.cache_clear()
    settings.WAGTAILAPI_BASE_URL = "https://api.example.org"
    try:
        assert item_format() != before
    finally:
        item_format.cache_clear()


def test_refresh_command_makes_every_item_stale(listing):
    params = {**DIGESTS, "locale": "en", "limit": 5}
    listing(params)
    out = StringIO()
    call_command("refresh_api_representations", stdout=out)
    assert "5 stored items made stale" in out.getvalue()
    assert stored_bodies() == 0
    stored, built = listing(params)
    assert stored == built and stored_bodies() == 5


# Every field a stored item shows, and the writes that change it (cms.apicache.staleness). A new
# API field must name its writers here, and have a receiver there if they are new.
FIELD_WRITERS = {
    DigestPage: {
        "short_name": "page save",
        "reading_minutes": "page save",
        "summary": "page save",
        "body": "page save",
        "topic": "parent save, move",
        "paper": "paper, author, affiliation and link saves; papers_changed",
        "translation_status": "wagtail-localize rows, source publish, translator name",
    },
    TopicPage: {
        "intro": "page save",
        "finish_first": "page save",
        "finish_first_url": "page save",
        "commentary": "page save",
        "digests": "child save, move, delete, privacy",
        "translation_status": "wagtail-localize rows, source publish, translator name",
    },
}


@pytest.mark.parametrize("model", list(FIELD_WRITERS), ids=lambda model: model.__name__)
def test_every_field_a_stored_item_shows_has_its_writers_named(model):
    assert [field.name for field in model.api_fields] == list(FIELD_WRITERS[model])
