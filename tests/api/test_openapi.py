"""The shipped OpenAPI description is valid, served, complete, and true of real responses."""

import pytest
import yaml
from openapi_spec_validator import validate

from cms.api.schema import SCHEMA_PATH
from cms.digests.api import PagesAPIViewSet
from cms.digests.models import DigestIndexPage, DigestPage, TopicPage
from cms.papers.api import PapersAPIViewSet
from cms.papers.models import Paper, PaperAuthor, PaperLink
from tests.support.content import DIGEST_TYPE, PAGES_URL, TOPIC_TYPE, digest, topic_of
from tests.support.notices import OPENALEX_FLAG, RETRACTION, add_notice

pytestmark = pytest.mark.django_db

SCHEMA = yaml.safe_load(SCHEMA_PATH.read_text(encoding="utf-8"))
SCHEMAS = SCHEMA["components"]["schemas"]


def test_description_is_valid_openapi():
    validate(SCHEMA)
    assert SCHEMA["openapi"].startswith("3.")


def test_description_is_served_as_shipped(client):
    response = client.get("/api/v2/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/yaml")
    assert response.content.decode() == SCHEMA_PATH.read_text(encoding="utf-8")
    assert client.get("/api/v2/schema/", {"format": "json"}).json() == SCHEMA
    assert client.get("/api/v2/schema/", {"format": "xml"}).status_code == 400


def test_the_description_describes_its_own_answers(conforms):
    conforms("/api/v2/schema/")
    conforms("/api/v2/schema/", format="json")
    conforms("/api/v2/schema/", 400, format="xml")


def test_the_root_says_where_every_endpoint_is(conforms, client, rich_odin):
    addresses = conforms("/api/v2/").json()
    assert set(addresses) == {"pages", "changes", "papers", "images", "documents", "schema"}
    for name, address in addresses.items():
        assert address.startswith("http://testserver/api/v2/"), name
        query = REQUIRED_QUERY.get(address.removeprefix("http://testserver"), "")
        assert client.get(address.removeprefix("http://testserver") + query).status_code == 200
    assert "wrong" in conforms("/api/v2/", 400, wrong="1").json()["message"]


@pytest.mark.parametrize("model", [DigestIndexPage, TopicPage, DigestPage])
def test_every_page_field_is_described(model):
    described = set(SCHEMAS["Page"]["properties"]) | set(SCHEMAS["PageMeta"]["properties"])
    assert set(PagesAPIViewSet.get_available_fields(model)) <= described


def test_every_paper_field_is_described():
    assert set(PapersAPIViewSet.get_available_fields(Paper)) - {"type", "detail_url"} <= set(
        SCHEMAS["PaperItem"]["properties"]
    )


@pytest.fixture
def rich_odin():
    page = digest("Odin")
    page.body = [("heading", {"text": "Why", "level": "h2"}), ("paragraph", "<p>Incast.</p>")]
    page.save_revision().publish()
    paper = page.paper
    paper.doi, paper.abstract = "10.1145/1.2", "An abstract."
    paper.preprint_doi = "10.48550/arxiv.2601.00001"  # a preprint and a version of record
    paper.save()
    PaperAuthor.objects.create(paper=paper, name="Ada Lovelace", orcid="0000-0002-1825-0097")
    PaperLink.objects.create(paper=paper, label="PDF", url="https://example.org/odin.pdf")
    add_notice(paper, RETRACTION)  # every key of an update notice, and null ones
    add_notice(paper, OPENALEX_FLAG)
    return page


@pytest.mark.parametrize("language", ["en", "zh-hant"])
@pytest.mark.parametrize(
    "params",
    [
        {},
        {"fields": "*"},
        {"type": DIGEST_TYPE, "fields": "*", "limit": 100},
        {"type": TOPIC_TYPE, "fields": "*"},
        {"type": "digests.DigestIndexPage", "fields": "*"},
        {"type": DIGEST_TYPE, "search": "nvlink", "fields": "paper(title,authors),topic"},
        {"type": DIGEST_TYPE, "fields": "_,title,short_name", "order": "-first_published_at"},
    ],
)
def test_page_listings_conform(conforms, rich_odin, params, language):
    conforms(PAGES_URL, locale=language, **params)


def test_page_details_conform_for_every_type(conforms, rich_odin):
    topic = topic_of(rich_odin)
    pages = [rich_odin, topic, topic.get_parent()]
    for page in pages:
        for translated in page.get_translations(inclusive=True):
            body = conforms(f"{PAGES_URL}{translated.pk}/").json()
            assert body["meta"]["type"] == f"digests.{type(page.specific).__name__}"


def test_find_and_errors_conform(conforms, rich_odin):
    assert conforms(f"{PAGES_URL}find/", 302, id=rich_odin.pk)["Location"].endswith(
        f"/api/v2/pages/{rich_odin.pk}/?"
    )
    conforms(f"{PAGES_URL}find/", 404, id=999999)
    for translated in rich_odin.get_translations(inclusive=True):
        found = conforms(f"{PAGES_URL}find/", 302, html_path=translated.url)
        assert found["Location"].endswith(f"/api/v2/pages/{translated.pk}/?")
    conforms(f"{PAGES_URL}999999/", 404)
    conforms(PAGES_URL, 400, limit=101)
    conforms(PAGES_URL, 400, type="digests.Nope")
    conforms(PAGES_URL, 400, order="nope")


def test_papers_conform(conforms, rich_odin):
    conforms("/api/v2/papers/")
    conforms("/api/v2/papers/", fields="*", limit=100, order="-year,title", venue="SIGCOMM")
    detail = conforms(f"/api/v2/papers/{rich_odin.paper_id}/").json()
    assert detail["authors"][0]["orcid"] == "0000-0002-1825-0097"
    assert detail["retracted"] is True and len(detail["updates"]) == 2  # validated above
    assert detail["preprint"] and detail["version_of_record"]
    conforms("/api/v2/papers/find/", 302, id=rich_odin.paper_id)
    conforms("/api/v2/papers/", 400, year="abc")


def test_media_listings_conform(conforms):
    conforms("/api/v2/images/")
    conforms("/api/v2/documents/")
    conforms("/api/v2/images/", 400, limit=1000)


# The parameters an endpoint cannot answer without.
REQUIRED_QUERY = {"/api/v2/changes/": "?locale=en"}


def every_described_get(rich_odin) -> list[str]:
    """A real URL for each GET the description lists (the preview's needs an editor's token)."""
    from django.core.files.base import ContentFile
    from wagtail.documents import get_document_model
    from wagtail.images import get_image_model
    from wagtail.images.tests.utils import get_test_image_file

    image = get_image_model().objects.create(title="Figure 1", file=get_test_image_file())
    rich_odin.body.append(("figure", {"image": image, "caption": "A figure", "alt_text": "x"}))
    rich_odin.save_revision().publish()
    document = get_document_model().objects.create(
        title="Slides", file=ContentFile(b"x", name="slides.txt")
    )
    ids = {
        "/api/v2/pages/{pk}/": rich_odin.pk,
        "/api/v2/papers/{pk}/": rich_odin.paper_id,
        "/api/v2/papers/{pk}/cite/": rich_odin.paper_id,
        "/api/v2/images/{pk}/": image.pk,
        "/api/v2/documents/{pk}/": document.pk,
    }
    urls = []
    for path, operations in SCHEMA["paths"].items():
        if "get" not in operations or path.endswith(("/find/", "/page_preview/")):
            continue
        urls.append(
            (path.format(pk=ids[path]) if "{pk}" in path else path) + REQUIRED_QUERY.get(path, "")
        )
    return urls


def test_every_get_describes_its_304(client, openapi, rich_odin):
    """Every GET answers If-None-Match with a 304 (cms.api.conditional_get): the details of
    images and documents, the root and the description did not say so."""
    from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

    for url in every_described_get(rich_odin):
        etag = client.get(url)["ETag"]
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304, url
        request = DjangoOpenAPIRequest(response.wsgi_request)
        openapi.validate_response(request, DjangoOpenAPIResponse(response))


def test_every_get_describes_the_rate_limit_s_429(client, openapi, rich_odin, settings):
    """Any address under /api/ may answer 429 with Retry-After (cms.ops.throttling)."""
    from django.core.cache import cache
    from openapi_core.contrib.django import DjangoOpenAPIRequest, DjangoOpenAPIResponse

    urls = every_described_get(rich_odin)
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {"anon": "1/minute"},
    }
    cache.clear()
    client.get("/api/v2/")
    for url in urls:
        response = client.get(url)
        assert response.status_code == 429, url
        request = DjangoOpenAPIRequest(response.wsgi_request)
        openapi.validate_response(request, DjangoOpenAPIResponse(response))
        assert int(response["Retry-After"]) > 0


def test_the_description_refuses_a_parameter_given_twice(client):
    """As every other view under /api/ does: the description answered the last `format`,
    while a proxy or a CDN rule in front may read the first."""
    response = client.get("/api/v2/schema/?format=json&format=yaml")
    assert response.status_code == 400
    assert response.json() == {"message": "format is given more than once"}
