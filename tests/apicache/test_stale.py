"""Every kind of write makes stale, in every cache layer, each API response it changes.

For each write: the API's responses are cached (response cache) before it; after it commits,
each cached response must equal the bytes built afresh (response cache emptied), and every
response whose bytes changed must have been purged from the CDN (a recording frontend-cache
backend), with the URLs `cms.apicache.stale.changed_urls` names for the write (the listings of
API_CACHE_PURGE_LIST_QUERIES and bare detail URLs: a CDN purges by exact URL). The responses
built after the write also read the visibility facts (cms.api.visibility) from the cache,
so a write that changed them without bumping their version fails here too.
"""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from wagtail.contrib.frontend_cache.utils import PurgeBatch
from wagtail.models import Locale, PageViewRestriction, Site
from wagtail_localize.models import StringTranslation, Translation

from cms.api.version import _set_new_version
from cms.apicache import stale
from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper
from cms.papers.signals import papers_changed
from cms.translation.workflow.prefill import publish_translation
from tests.ops import purge_recorder

pytestmark = pytest.mark.django_db

BASE = "http://testserver"


@pytest.fixture(autouse=True)
def recording_cdn(settings, cached_api):
    settings.WAGTAILFRONTENDCACHE = {
        "recording": {"BACKEND": "tests.ops.purge_recorder.RecordingBackend"}
    }
    cache.clear()
    purge_recorder.purged_urls.clear()
    yield purge_recorder.purged_urls
    purge_recorder.purged_urls.clear()
    cache.clear()


def en_digest() -> DigestPage:
    return DigestPage.objects.get(locale__language_code="en", short_name="FabricPerf")


def zh_digest() -> DigestPage:
    return en_digest().get_translation(Locale.objects.get(language_code="zh-hant")).specific


def probed_urls() -> list[str]:
    """The listings a CDN is purged of, and the details around the written digest."""
    digest, chinese = en_digest(), zh_digest()
    other_topic = TopicPage.objects.filter(locale=digest.locale).exclude(pk=digest.get_parent().pk)[
        0
    ]
    pages = [digest, chinese, digest.get_parent(), chinese.get_parent(), other_topic]
    urls = [BASE + path for path in stale.listing_paths()]
    urls += [f"{BASE}/api/v2/pages/{page.pk}/" for page in pages]
    urls += [f"{BASE}/api/v2/pages/{page.pk}/?fields=*" for page in pages[:2]]
    urls += [f"{BASE}/api/v2/papers/", f"{BASE}/api/v2/papers/{digest.paper_id}/"]
    return urls


def responses(client, urls: list[str], language: str = "en") -> dict[str, tuple[int, bytes]]:
    answers = {}
    for url in urls:
        response = client.get(url.removeprefix(BASE), HTTP_ACCEPT_LANGUAGE=language)
        answers[url] = (response.status_code, response.content)
    return answers


# -- the writes ----------------------------------------------------------------------------------


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


def restrict_topic():
    topic = en_digest().get_parent()
    PageViewRestriction.objects.create(page=topic, restriction_type=PageViewRestriction.LOGIN)


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


def _zh_string(order: str) -> StringTranslation:
    page = zh_digest()
    return StringTranslation.objects.filter(
        locale=page.locale, context__object_id=page.translation_key
    ).order_by(order, "pk")[0]


def translator_saves_a_segment():
    string = _zh_string("pk")
    string.data = "改過的譯文"
    string.save()


def publish_a_translation():
    translation = Translation.objects.get(
        source__object_id=en_digest().translation_key, target_locale__language_code="zh-hant"
    )
    title = StringTranslation.objects.get(
        translation_of__segments__source=translation.source,
        translation_of__segments__context__path="title",
        locale=translation.target_locale,
    )
    title.data = "新的標題"
    title.save()
    publish_translation(translation)


def publish_a_new_summary():
    page = en_digest()
    page.summary = "A rewritten summary."
    page.save_revision().publish()


def translation_is_synced():
    """After the source's publish (prepared): the sync alone changes the translation's status."""
    Translation.objects.get(
        source__object_id=en_digest().translation_key, target_locale__language_code="zh-hant"
    ).source.update_from_db()


def name_the_latest_translator():
    person = get_user_model().objects.create_user(
        "lin", first_name="Mei", last_name="Lin", password="x"
    )
    string = _zh_string("-updated_at")
    string.last_translated_by = person
    string.save()


def translator_changes_their_name():
    person = get_user_model().objects.get(username="lin")
    person.first_name = "May"
    person.save()


def site_gets_another_root():
    """The site now serves the English digest's topic only: every other page leaves the API."""
    site = Site.objects.get(is_default_site=True)
    site.root_page = en_digest().get_parent()
    site.save()


WRITES = [
    publish_digest_title,
    rename_topic,
    move_digest,
    unpublish_digest,
    restrict_digest,
    restrict_topic,
    delete_digest,
    edit_paper_in_admin,
    rename_an_affiliation,
    sync_writes_papers,
    translator_saves_a_segment,
    publish_a_translation,
    translation_is_synced,
    translator_changes_their_name,
    site_gets_another_root,
]
# Writes the public API must not show: a translator's unpublished work and staff names
# (translation_status holds published facts only, cms.translation.status.public).
UNPUBLISHED_WRITES = {translator_saves_a_segment, translator_changes_their_name}
PREPARATIONS = {
    translator_changes_their_name: name_the_latest_translator,
    translation_is_synced: publish_a_new_summary,
}


@pytest.mark.parametrize("write", WRITES, ids=[write.__name__ for write in WRITES])
@pytest.mark.parametrize("language", ["en", "zh-hant"])
def test_every_write_makes_what_it_changes_stale_in_every_layer(
    client, recording_cdn, django_capture_on_commit_callbacks, write, language
):
    with django_capture_on_commit_callbacks(execute=True):
        PREPARATIONS.get(write, lambda: None)()
    urls = probed_urls()
    before = responses(client, urls, language)  # now in the response cache
    recording_cdn.clear()

    with django_capture_on_commit_callbacks(execute=True):
        write()

    cached = responses(client, urls, language)
    cache.clear()
    fresh = responses(client, urls, language)
    assert cached == fresh  # the response cache
    changed = {url for url in urls if fresh[url] != before[url]}
    if write in UNPUBLISHED_WRITES:
        assert not changed, "an unpublished write showed in the public API"
        return
    assert changed, "the write showed nowhere"
    # The CDN, by exact URL: other query strings of a detail expire with their s-maxage.
    assert {url for url in changed if "?fields" not in url} <= set(recording_cdn)


def test_nothing_is_purged_before_the_transaction_commits(recording_cdn):
    publish_digest_title()
    assert recording_cdn == []


def test_a_draft_changes_nothing(recording_cdn, django_capture_on_commit_callbacks):
    page = en_digest()
    page.title = "An unpublished title"
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        page.save_revision()
    assert callbacks == [] and recording_cdn == []


def test_changed_urls_names_the_page_its_translations_parent_and_listings():
    digest, chinese = en_digest(), zh_digest()
    urls = stale.changed_urls(stale.Write(stale.UNPUBLISH, page=digest))
    details = {f"{BASE}/api/v2/pages/{page.pk}/" for page in (digest, chinese)}
    details.add(f"{BASE}/api/v2/pages/{digest.get_parent().pk}/")
    listings = {
        f"{BASE}/api/v2/pages/?type=digests.DigestPage&fields=*&locale={code}"
        for code in ("en", "zh-hant")
    }
    assert details | listings <= set(urls)
    unrelated = DigestPage.objects.exclude(translation_key=digest.translation_key).first()
    assert f"{BASE}/api/v2/pages/{unrelated.pk}/" not in urls


def test_a_page_made_private_purges_its_aliases_too(
    recording_cdn, django_capture_on_commit_callbacks
):
    """An alias shows its page's content only while that page is public
    (cms.api.visibility): restricting the page, or its topic, must purge the alias's
    detail from the CDN as well."""
    digest = en_digest()
    other_topic = TopicPage.objects.filter(locale=digest.locale).exclude(pk=digest.get_parent().pk)[
        0
    ]
    alias = digest.create_alias(parent=other_topic, update_slug="fabricperf-again")
    for private in (digest, digest.get_parent()):
        recording_cdn.clear()
        with django_capture_on_commit_callbacks(execute=True):
            restriction = PageViewRestriction.objects.create(
                page=private, restriction_type=PageViewRestriction.LOGIN
            )
        assert f"{BASE}/api/v2/pages/{alias.pk}/" in recording_cdn, private
        with django_capture_on_commit_callbacks(execute=True):
            restriction.delete()


@pytest.mark.parametrize("hide", ["privacy", "unpublish"])
def test_a_page_hidden_is_purged_from_the_cdn_s_feeds_and_sitemap(
    recording_cdn, django_capture_on_commit_callbacks, hide
):
    """The feeds and the sitemap name public pages (title, summary, address) and a CDN keeps
    them for minutes: a page made private or unpublished must leave them at once."""
    page = en_digest()
    with django_capture_on_commit_callbacks(execute=True):
        if hide == "privacy":
            PageViewRestriction.objects.create(
                page=page, restriction_type=PageViewRestriction.LOGIN
            )
        else:
            page.unpublish()
    assert {f"{BASE}/feed.atom", f"{BASE}/zh-hant/feed.atom", f"{BASE}/sitemap.xml"} <= set(
        recording_cdn
    )


def cache_callbacks(callbacks) -> list:
    """The on-commit callbacks of the cache layers (a publish also schedules other work, such
    as the translators' notice)."""
    return [
        callback
        for callback in callbacks
        if getattr(callback, "func", None) is _set_new_version
        or isinstance(getattr(callback, "__self__", None), PurgeBatch)
    ]


def test_a_bulk_writer_records_one_write_to_everything(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks() as callbacks, stale.batched():
        publish_digest_title()
        edit_paper_in_admin()
    assert len(cache_callbacks(callbacks)) == 2  # one content version bump, one purge
    assert purge_recorder.purged_urls == []
    for callback in cache_callbacks(callbacks):
        callback()
    purged = set(purge_recorder.purged_urls)
    assert f"{BASE}/api/v2/pages/{zh_digest().pk}/" in purged
    assert f"{BASE}/api/v2/papers/{en_digest().paper_id}/" in purged


def test_a_locale_change_purges_every_page(recording_cdn, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        Locale.objects.create(language_code="fr")
    purged = set(recording_cdn)
    assert f"{BASE}/api/v2/pages/{zh_digest().pk}/" in purged
    assert f"{BASE}/api/v2/pages/?locale=fr" in purged


def test_no_frontend_cache_configured_means_no_purge(
    settings, recording_cdn, django_capture_on_commit_callbacks
):
    del settings.WAGTAILFRONTENDCACHE
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        publish_digest_title()
    bumps = cache_callbacks(callbacks)
    assert recording_cdn == [] and [bump.func for bump in bumps] == [_set_new_version]


@pytest.mark.parametrize("endpoint", ["images", "documents"])
def test_an_image_or_document_write_is_stale_in_every_layer(
    client, recording_cdn, django_capture_on_commit_callbacks, endpoint
):
    """Upload, retitle, delete: the media endpoints never answer from before the write, and
    the CDN is purged of the listing and the item's detail. (An image is listed while a
    public page uses it, so this one is shown on a digest.)"""
    from django.core.files.base import ContentFile
    from wagtail.documents import get_document_model
    from wagtail.images import get_image_model
    from wagtail.images.tests.utils import get_test_image_file

    def upload():
        if endpoint == "images":
            return get_image_model().objects.create(title="Figure 1", file=get_test_image_file())
        return get_document_model().objects.create(
            title="Slides", file=ContentFile(b"x", name="slides.txt")
        )

    listing = f"/api/v2/{endpoint}/"
    assert client.get(listing).json()["meta"]["total_count"] == 0  # now cached
    with django_capture_on_commit_callbacks(execute=True):
        item = upload()
        if endpoint == "images":
            show_on_a_digest(item)
    assert client.get(listing).json()["meta"]["total_count"] == 1
    detail = f"/api/v2/{endpoint}/{item.pk}/"
    assert {BASE + listing, BASE + detail} <= set(recording_cdn)

    assert client.get(detail).json()["title"] in ("Figure 1", "Slides")  # now cached
    with django_capture_on_commit_callbacks(execute=True):
        item.title = "Renamed"
        item.save()
    assert client.get(detail).json()["title"] == "Renamed"

    recording_cdn.clear()
    with django_capture_on_commit_callbacks(execute=True):
        item.delete()
    assert client.get(detail).status_code == 404
    assert client.get(listing).json()["meta"]["total_count"] == 0
    assert {BASE + listing, BASE + detail} <= set(recording_cdn)


def show_on_a_digest(image, *, publish: bool = True) -> DigestPage:
    page = en_digest()
    page.body.append(("figure", {"image": image, "caption": "A figure", "alt_text": "x"}))
    revision = page.save_revision()
    if publish:
        revision.publish()
    return page


def test_an_image_is_listed_only_while_a_public_page_uses_it(
    client, recording_cdn, django_capture_on_commit_callbacks
):
    """An upload only a draft uses, or only a private page, would tell its title: it is not
    listed, and its detail is a 404, until the page using it is public; the CDN is purged of
    the images listing and the image's detail when that changes."""
    from wagtail.images import get_image_model
    from wagtail.images.tests.utils import get_test_image_file

    def shown() -> tuple[int, int]:
        listing = client.get("/api/v2/images/").json()["meta"]["total_count"]
        return listing, client.get(f"/api/v2/images/{image.pk}/").status_code

    with django_capture_on_commit_callbacks(execute=True):
        image = get_image_model().objects.create(title="Unannounced", file=get_test_image_file())
        page = show_on_a_digest(image, publish=False)
    assert shown() == (0, 404)  # only a draft uses it

    urls = {f"{BASE}/api/v2/images/", f"{BASE}/api/v2/images/{image.pk}/"}
    recording_cdn.clear()
    with django_capture_on_commit_callbacks(execute=True):
        page.get_latest_revision().publish()
    assert shown() == (1, 200)
    assert urls <= set(recording_cdn)

    recording_cdn.clear()
    with django_capture_on_commit_callbacks(execute=True):
        PageViewRestriction.objects.create(
            page=page, restriction_type=PageViewRestriction.PASSWORD, password="x"
        )
    assert shown() == (0, 404)
    assert urls <= set(recording_cdn)


def test_an_image_write_purges_the_pages_that_show_it(
    recording_cdn, django_capture_on_commit_callbacks
):
    from wagtail.images import get_image_model
    from wagtail.images.tests.utils import get_test_image_file

    image = get_image_model().objects.create(title="Figure 1", file=get_test_image_file())
    page = en_digest()
    page.body.append(("figure", {"image": image, "caption": "A figure", "alt_text": "x"}))
    with django_capture_on_commit_callbacks(execute=True):
        page.save_revision().publish()
    recording_cdn.clear()

    with django_capture_on_commit_callbacks(execute=True):
        image.title = "Renamed"
        image.save()

    assert f"{BASE}/api/v2/pages/{page.pk}/" in recording_cdn
    assert f"{BASE}/api/v2/pages/{zh_digest().pk}/" not in recording_cdn  # it shows no figure


def served_document(client, collection, on_commit_callbacks) -> tuple[str, str]:
    """A document "Merger terms" in `collection`, its listing and detail asked once after the
    upload committed (so cached, and served from the cache until a write makes them stale);
    their paths."""
    from django.core.files.base import ContentFile
    from wagtail.documents import get_document_model

    with on_commit_callbacks(execute=True):
        document = get_document_model().objects.create(
            title="Merger terms", collection=collection, file=ContentFile(b"x", name="m.txt")
        )
    listing, detail = "/api/v2/documents/", f"/api/v2/documents/{document.pk}/"
    assert b"Merger terms" in client.get(listing).content
    assert client.get(detail).status_code == 200
    return listing, detail


def test_a_collection_made_private_stops_serving_its_documents_at_once(
    client, recording_cdn, django_capture_on_commit_callbacks
):
    """Documents are public by their collection's privacy: restricting the collection must
    not leave the cached listing and detail (nor the CDN's) naming the document."""
    from wagtail.models import Collection, CollectionViewRestriction

    collection = Collection.get_first_root_node().add_child(name="Board papers")
    listing, detail = served_document(client, collection, django_capture_on_commit_callbacks)
    recording_cdn.clear()

    with django_capture_on_commit_callbacks(execute=True):
        restriction = CollectionViewRestriction.objects.create(
            collection=collection, restriction_type=CollectionViewRestriction.LOGIN
        )
    assert b"Merger terms" not in client.get(listing).content
    assert client.get(detail).status_code == 404
    assert {BASE + listing, BASE + detail} <= set(recording_cdn)

    with django_capture_on_commit_callbacks(execute=True):
        restriction.delete()
    assert client.get(detail).status_code == 200


def test_a_collection_moved_under_a_private_one_stops_serving_its_documents_at_once(
    client, recording_cdn, django_capture_on_commit_callbacks
):
    """A collection's privacy is its ancestors' too: an administrator moving "Board papers"
    under a private collection in Wagtail's collection editor must not leave the cached
    listing and detail (nor the CDN's) naming its documents. Wagtail moves it after saving it,
    and a move sends no signal."""
    from django.test import Client
    from django.urls import reverse
    from wagtail.models import Collection, CollectionViewRestriction

    root = Collection.get_first_root_node()
    with django_capture_on_commit_callbacks(execute=True):
        private = root.add_child(name="Internal")
        CollectionViewRestriction.objects.create(
            collection=private, restriction_type=CollectionViewRestriction.LOGIN
        )
        collection = root.add_child(name="Board papers")
    listing, detail = served_document(client, collection, django_capture_on_commit_callbacks)
    recording_cdn.clear()

    admin = Client()
    admin.force_login(get_user_model().objects.create_superuser("admin", "a@example.org", "pw"))
    with django_capture_on_commit_callbacks(execute=True):
        response = admin.post(
            reverse("wagtailadmin_collections:edit", args=[collection.pk]),
            {"name": "Board papers", "parent": private.pk},
        )
    assert response.status_code == 302
    assert Collection.objects.get(pk=collection.pk).get_parent() == private
    assert b"Merger terms" not in client.get(listing).content
    assert client.get(detail).status_code == 404
    assert {BASE + listing, BASE + detail} <= set(recording_cdn)
