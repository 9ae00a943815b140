"""Publishing, unpublishing, translations and paper changes purge the API in both languages."""

import pytest
from wagtail.models import Locale
from wagtail_localize.models import Translation, TranslationSource

from cms.digests.models import DigestPage

from . import purge_recorder

pytestmark = pytest.mark.django_db

BASE = "http://testserver/api/v2/pages/"
LIST_URLS = {
    BASE,
    f"{BASE}?locale=en",
    f"{BASE}?locale=zh-hant",
    f"{BASE}?type=digests.DigestPage&fields=*&locale=en",
    f"{BASE}?type=digests.DigestPage&fields=*&locale=zh-hant",
}


@pytest.fixture(autouse=True)
def recording_backend(settings):
    settings.WAGTAILFRONTENDCACHE = {
        "recording": {"BACKEND": "tests.ops.purge_recorder.RecordingBackend"}
    }
    purge_recorder.purged_urls.clear()
    yield purge_recorder.purged_urls
    purge_recorder.purged_urls.clear()


@pytest.fixture
def digest_pair():
    english = DigestPage.objects.filter(locale__language_code="en").live().first()
    chinese = english.get_translation(Locale.objects.get(language_code="zh-hant"))
    return english, chinese


def detail_urls(*pages) -> set[str]:
    urls = set()
    for page in pages:
        urls |= {f"{BASE}{page.pk}/", f"{BASE}{page.get_parent().pk}/"}
    return urls


def test_publish_purges_both_languages(
    digest_pair, recording_backend, django_capture_on_commit_callbacks
):
    english, chinese = digest_pair
    english.summary = "A clearer summary."

    with django_capture_on_commit_callbacks(execute=True):
        english.save_revision().publish()

    assert set(recording_backend) >= detail_urls(english, chinese) | LIST_URLS


def test_nothing_is_purged_before_the_transaction_commits(digest_pair, recording_backend):
    english, _ = digest_pair

    english.save_revision().publish()

    assert recording_backend == []


def test_unpublish_purges_both_languages(
    digest_pair, recording_backend, django_capture_on_commit_callbacks
):
    english, chinese = digest_pair

    with django_capture_on_commit_callbacks(execute=True):
        chinese.unpublish()

    assert set(recording_backend) >= detail_urls(english, chinese) | LIST_URLS


def test_publishing_a_translation_purges_both_languages(
    digest_pair, recording_backend, django_capture_on_commit_callbacks
):
    english, chinese = digest_pair
    translation = Translation.objects.get(
        source=TranslationSource.objects.get_for_instance(english),
        target_locale=chinese.locale,
    )

    with django_capture_on_commit_callbacks(execute=True):
        translation.save_target(publish=True)

    assert set(recording_backend) >= detail_urls(english, chinese) | LIST_URLS


def test_no_backend_configured_means_no_purge(
    digest_pair, settings, recording_backend, django_capture_on_commit_callbacks
):
    del settings.WAGTAILFRONTENDCACHE
    english, _ = digest_pair

    with django_capture_on_commit_callbacks(execute=True):
        english.save_revision().publish()

    assert recording_backend == []


def paper_urls(english, chinese) -> set[str]:
    papers = "http://testserver/api/v2/papers/"
    return {
        papers,
        f"{papers}{english.paper_id}/",
        f"{BASE}{english.pk}/",
        f"{BASE}{chinese.pk}/",
    } | LIST_URLS


def test_an_editors_paper_save_purges_the_paper_and_its_digests_in_both_languages(
    digest_pair, recording_backend, django_capture_on_commit_callbacks
):
    english, chinese = digest_pair
    paper = english.paper
    paper.title = "A corrected title"

    with django_capture_on_commit_callbacks(execute=True):
        paper.save()

    assert set(recording_backend) >= paper_urls(english, chinese)
    other = DigestPage.objects.exclude(paper=paper).first()
    assert f"{BASE}{other.pk}/" not in recording_backend
