"""The API response cache never serves content older than the last publish or paper write."""

import json

import pytest
from django.core.cache import cache
from wagtail.models import Locale

from cms.digests.models import DigestPage
from cms.translation.workflow.prefill import publish_translation

LIST = "/api/v2/pages/?type=digests.DigestPage&fields=title,paper&limit=100&locale={locale}"

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def empty_cache():
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def digest():
    return DigestPage.objects.live().filter(locale__language_code="en").order_by("path").first()


def titles(client, locale="en") -> dict[int, str]:
    response = client.get(LIST.format(locale=locale))
    assert response.status_code == 200
    return {item["id"]: item["title"] for item in json.loads(response.content)["items"]}


def test_repeated_request_is_served_without_queries(client, django_assert_num_queries):
    first = client.get(LIST.format(locale="en"))
    with django_assert_num_queries(0):
        second = client.get(LIST.format(locale="en"))
    assert second.content == first.content
    assert second["ETag"] == first["ETag"]


def test_conditional_request_answers_304_until_content_changes(
    client, digest, django_capture_on_commit_callbacks
):
    etag = client.get(LIST.format(locale="en"))["ETag"]
    assert client.get(LIST.format(locale="en"), HTTP_IF_NONE_MATCH=etag).status_code == 304

    digest.title = "Retitled after publishing"
    with django_capture_on_commit_callbacks(execute=True):
        digest.save_revision().publish()

    response = client.get(LIST.format(locale="en"), HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200
    assert response["ETag"] != etag


def test_publish_is_visible_at_once(client, digest, django_capture_on_commit_callbacks):
    assert titles(client)[digest.pk] != "Retitled after publishing"
    digest.title = "Retitled after publishing"
    with django_capture_on_commit_callbacks(execute=True):
        digest.save_revision().publish()
    assert titles(client)[digest.pk] == "Retitled after publishing"
    detail = json.loads(client.get(f"/api/v2/pages/{digest.pk}/").content)
    assert detail["title"] == "Retitled after publishing"


def test_unpublish_is_visible_at_once(client, digest, django_capture_on_commit_callbacks):
    assert client.get(f"/api/v2/pages/{digest.pk}/").status_code == 200
    assert digest.pk in titles(client)
    with django_capture_on_commit_callbacks(execute=True):
        digest.unpublish()
    assert digest.pk not in titles(client)
    assert client.get(f"/api/v2/pages/{digest.pk}/").status_code == 404


def test_translation_publish_is_visible_at_once(client, digest, django_capture_on_commit_callbacks):
    from wagtail_localize.models import StringTranslation, Translation

    zh = Locale.objects.get(language_code="zh-hant")
    target = digest.get_translation(zh)
    assert titles(client, "zh-hant")[target.pk] != "新的標題"

    translation = Translation.objects.get(
        source__object_id=digest.translation_key, target_locale=zh
    )
    title = StringTranslation.objects.get(
        translation_of__segments__source=translation.source,
        translation_of__segments__context__path="title",
        locale=zh,
    )
    title.data = "新的標題"
    title.save()
    with django_capture_on_commit_callbacks(execute=True):
        publish_translation(translation)

    assert titles(client, "zh-hant")[target.pk] == "新的標題"


def test_paper_write_is_visible_at_once(client, digest, django_capture_on_commit_callbacks):
    from cms.papers.models import PaperAuthor

    def paper(page_id):
        response = client.get(f"/api/v2/pages/{page_id}/")
        return json.loads(response.content)["paper"]

    assert paper(digest.pk)["authors"] == []
    with django_capture_on_commit_callbacks(execute=True):
        digest.paper.title = "Title corrected by the sync worker"
        digest.paper.save()
        PaperAuthor.objects.create(paper=digest.paper, name="Ada Lovelace", sort_order=0)
    synced = paper(digest.pk)
    assert synced["title"] == "Title corrected by the sync worker"
    assert [author["name"] for author in synced["authors"]] == ["Ada Lovelace"]


def test_a_hit_is_one_cache_round_trip(client, monkeypatch):
    """The version and the entry are read together: on Redis each round trip costs more than
    the rest of a hit. (Reads are counted as the middleware makes them: the in-memory cache's
    get_many calls its own get.)"""
    client.get(LIST.format(locale="en"))
    reads = []

    def counted(original):
        def read(*args, **kwargs):
            if reads and reads[-1] is None:  # inside a counted read
                return original(*args, **kwargs)
            reads.append(None)
            try:
                return original(*args, **kwargs)
            finally:
                reads[-1] = args[0]

        return read

    for method in ("get", "get_many"):
        monkeypatch.setattr(cache, method, counted(getattr(cache, method)))
    second = client.get(LIST.format(locale="en"))
    assert second.status_code == 200 and len(reads) == 1, reads


def test_a_response_that_varies_on_another_header_is_not_stored(rf):
    from django.http import HttpResponse

    from cms.apicache.middleware import APIResponseCacheMiddleware

    calls = []

    def view(request):
        calls.append(request.path)
        response = HttpResponse(b"{}", content_type="application/json")
        response["Vary"] = "Accept-Language, User-Agent"
        return response

    middleware = APIResponseCacheMiddleware(view)
    middleware(rf.get("/api/v2/pages/"))
    middleware(rf.get("/api/v2/pages/"))
    assert len(calls) == 2


def test_only_anonymous_api_gets_are_cached(rf):
    from django.http import HttpResponse

    from cms.apicache.middleware import APIResponseCacheMiddleware

    calls = []

    def view(request):
        calls.append(request.path)
        return HttpResponse(b"{}", content_type="application/json")

    middleware = APIResponseCacheMiddleware(view)
    for _ in range(2):
        middleware(rf.get("/api/v2/pages/"))
        middleware(rf.get("/admin/pages/"))
        middleware(rf.get("/api/v2/pages/", HTTP_AUTHORIZATION="Bearer x"))
        middleware(rf.post("/api/v2/pages/"))
    assert calls.count("/api/v2/pages/") == 1 + 2 + 2
    assert calls.count("/admin/pages/") == 2


# Papers without `locale` name their venues in the request's language (a page's are in the
# page's own, whatever the request's).
@pytest.mark.parametrize(
    "url", ["/api/v2/papers/{paper}/?fields=venue", "/api/v2/papers/?limit=100"]
)
def test_a_response_depends_only_on_its_request(client, digest, url):
    """A worker thread keeps the language its previous request activated (Django does not
    reset it): a zh-hant request, then an English one, must not get the Chinese response."""
    from django.utils import translation

    url = url.format(paper=digest.paper_id)
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content
    cache.clear()
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hant").content
    assert chinese != english  # venue names are translated
    translation.activate("zh-hant")  # as the zh-hant request left the thread
    try:
        again = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    finally:
        translation.deactivate()
    assert again.content == english
    assert "Accept-Language" in again["Vary"]


def test_a_listing_that_depends_on_who_asks_is_private(client, digest, django_user_model):
    """A signed-in reader passes a login restriction: their listing shows the private digest,
    goes out `private`, and is neither served from nor stored in the shared response cache."""
    from wagtail.models import PageViewRestriction

    PageViewRestriction.objects.create(page=digest, restriction_type=PageViewRestriction.LOGIN)
    anonymous = client.get(LIST.format(locale="en"))
    assert digest.pk not in titles(client)
    assert anonymous["Cache-Control"].startswith("public")
    client.force_login(django_user_model.objects.create_user("reader", password="x"))
    signed_in = client.get(LIST.format(locale="en"))
    assert signed_in["Cache-Control"] == "private, no-cache"
    assert digest.pk in titles(client)
    client.logout()
    assert digest.pk not in titles(client)


@pytest.mark.parametrize("path", ["/api/v2/papers/", "/api/v2/papers/{paper}/", "{cite}"])
def test_papers_that_depend_on_who_asks_are_private(client, digest, django_user_model, path):
    """A paper shown only by login-restricted digests: a signed-in reader sees it, privately;
    an anonymous reader does not see it, and that answer may be shared."""
    from wagtail.models import PageViewRestriction

    for version in digest.get_translations(inclusive=True):
        PageViewRestriction.objects.create(page=version, restriction_type=PageViewRestriction.LOGIN)
    paper = digest.paper_id
    url = path.format(paper=paper, cite=f"/api/v2/papers/{paper}/cite/?format=bibtex")

    def shows_paper(response) -> bool:
        if path != "/api/v2/papers/":
            return response.status_code == 200
        return paper in {item["id"] for item in response.json()["items"]}

    anonymous = client.get(url)
    assert not shows_paper(anonymous)
    client.force_login(django_user_model.objects.create_user("reader", password="x"))
    signed_in = client.get(url)
    assert shows_paper(signed_in)
    assert signed_in["Cache-Control"] == "private, no-cache"
    client.logout()
    if path == "/api/v2/papers/":  # without the paper, the same for every anonymous reader
        assert client.get(url)["Cache-Control"].startswith("public")


@pytest.mark.parametrize("endpoint", ["images", "documents"])
def test_media_that_depend_on_who_asks_are_private(client, digest, django_user_model, endpoint):
    """An image only a login-restricted digest uses, a document in a login-restricted
    collection: a signed-in reader sees it, privately, so no shared cache hands it on to
    anonymous readers."""
    from django.core.files.base import ContentFile
    from wagtail.documents import get_document_model
    from wagtail.images import get_image_model
    from wagtail.images.tests.utils import get_test_image_file
    from wagtail.models import Collection, CollectionViewRestriction, PageViewRestriction

    if endpoint == "images":
        image = get_image_model().objects.create(title="Figure 1", file=get_test_image_file())
        digest.body.append(("figure", {"image": image, "caption": "A figure", "alt_text": "x"}))
        digest.save_revision().publish()
        PageViewRestriction.objects.create(page=digest, restriction_type=PageViewRestriction.LOGIN)
    else:
        collection = Collection.get_first_root_node().add_child(name="Internal")
        get_document_model().objects.create(
            title="Slides", file=ContentFile(b"x", name="slides.txt"), collection=collection
        )
        CollectionViewRestriction.objects.create(
            collection=collection, restriction_type=CollectionViewRestriction.LOGIN
        )
    url = f"/api/v2/{endpoint}/"
    anonymous = client.get(url)
    assert anonymous.json()["meta"]["total_count"] == 0
    assert anonymous["Cache-Control"].startswith("public")
    client.force_login(django_user_model.objects.create_user("reader", password="x"))
    signed_in = client.get(url)
    assert signed_in.json()["meta"]["total_count"] == 1
    assert signed_in["Cache-Control"] == "private, no-cache"


CHROME_ACCEPT = (
    "text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,"
    "image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7"
)
FIREFOX_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
FRONT_END = "https://digests.example.org"


def build_count(monkeypatch) -> list[str]:
    """The URLs the pages API built a response for (a cache miss), in order."""
    from cms.digests.api import PagesAPIViewSet

    built = []
    original = PagesAPIViewSet.listing_view

    def counted(self, request):
        built.append(request.get_full_path())
        return original(self, request)

    monkeypatch.setattr(PagesAPIViewSet, "listing_view", counted)
    return built


def test_headers_that_do_not_change_the_answer_share_one_entry(client, settings, monkeypatch):
    """Browsers' Accept headers that negotiate the same JSON, any Origin, and cookies other
    than the session's (an analytics cookie, the CSRF cookie) make one cache entry, not one
    per header value; what each client must see (CORS) is still its own."""
    settings.DEBUG = False
    settings.CORS_ALLOWED_ORIGINS = [FRONT_END]
    built = build_count(monkeypatch)
    url = LIST.format(locale="en")
    variants = [
        {},
        {"HTTP_ACCEPT": CHROME_ACCEPT},
        {"HTTP_ACCEPT": FIREFOX_ACCEPT},
        {"HTTP_ACCEPT": "*/*", "HTTP_ORIGIN": FRONT_END},
        {"HTTP_ACCEPT": "*/*;q=0.5", "HTTP_ORIGIN": "https://elsewhere.example"},
        {"HTTP_COOKIE": "_ga=GA1.1.123; csrftoken=abc"},
        {"HTTP_COOKIE": "_ga=GA1.1.456"},
    ]
    responses = [client.get(url, **headers) for headers in variants]
    client.cookies.clear()
    assert len(built) == 1, built
    assert {response.content for response in responses} == {responses[0].content}
    assert {response["ETag"] for response in responses} == {responses[0]["ETag"]}
    for headers, response in zip(variants, responses, strict=True):
        vary = {value.strip().lower() for value in response["Vary"].split(",")}
        assert {"accept", "accept-language", "origin"} <= vary
        allowed = headers.get("HTTP_ORIGIN") == FRONT_END
        assert response.get("Access-Control-Allow-Origin") == (FRONT_END if allowed else None)


def test_accept_headers_that_change_the_answer_keep_their_own_entry(client, settings, digest):
    """Indentation, a citation format and its style are the client's to choose: none of them
    is handed the answer another Accept header got."""
    settings.DEBUG = False
    url = LIST.format(locale="en")
    compact = client.get(url, HTTP_ACCEPT="*/*")
    indented = client.get(url, HTTP_ACCEPT="application/json; indent=4")
    assert b"\n" not in compact.content and indented.content.startswith(b'{\n    "meta"')
    assert client.get(url, HTTP_ACCEPT="application/xml").status_code == 406

    paper = f"/api/v2/papers/{digest.paper_id}/"
    as_json = client.get(paper, HTTP_ACCEPT="application/json")
    bibtex = client.get(paper, HTTP_ACCEPT="application/x-bibtex")
    acm = client.get(paper, HTTP_ACCEPT="text/x-bibliography")
    ieee = client.get(paper, HTTP_ACCEPT="text/x-bibliography; style=ieee")
    assert as_json["Content-Type"] == "application/json"
    assert bibtex["Content-Type"].startswith("application/x-bibtex")
    assert acm.content != ieee.content
    assert client.get(paper, HTTP_ACCEPT="application/x-bibtex").content == bibtex.content


def test_with_debug_on_a_browser_gets_the_browsable_api_and_fetch_gets_json(client, settings):
    settings.DEBUG = True
    url = LIST.format(locale="en")
    assert client.get(url, HTTP_ACCEPT=CHROME_ACCEPT)["Content-Type"].startswith("text/html")
    assert client.get(url, HTTP_ACCEPT="*/*")["Content-Type"] == "application/json"
    assert client.get(url, HTTP_ACCEPT=FIREFOX_ACCEPT)["Content-Type"].startswith("text/html")
