"""Every bad query parameter is a 400 with a message naming it - never a 500."""

from datetime import timedelta

import pytest

from tests.support.content import DIGEST_TYPE, PAGES_URL, digest

pytestmark = pytest.mark.django_db

BAD_LISTING_PARAMS = [
    ({"limit": "abc"}, "limit must be a non-negative integer"),
    ({"limit": "-1"}, "limit must be a non-negative integer"),
    ({"limit": "101"}, "limit cannot be higher than 100"),
    ({"limit": "99999999999999999999999"}, "limit must be at most"),
    ({"offset": "-1"}, "offset must be a non-negative integer"),
    ({"offset": "1e3"}, "offset must be a non-negative integer"),
    ({"limit": "\uff15"}, "limit must be a non-negative integer"),  # a full-width 5
    ({"format": "yaml"}, "format must be one of: json"),
    ({"id": "\u0661\u0662"}, "id must be a non-negative integer"),  # Arabic-Indic 12
    ({"offset": "99999999999999999999999"}, "offset must be at most"),
    ({"type": "digests.NoSuchPage"}, "type 'digests.NoSuchPage' is not a page type"),
    ({"type": "papers.Paper"}, "type 'papers.Paper' is not a page type"),
    ({"type": "nonsense"}, "type 'nonsense' is not a page type"),
    ({"type": f"{DIGEST_TYPE},digests.Nope"}, "type 'digests.Nope' is not a page type"),
    ({"fields": "nope"}, "unknown fields: nope"),
    ({"type": DIGEST_TYPE, "fields": "paper(nope)"}, "unknown fields: nope"),
    ({"type": DIGEST_TYPE, "fields": "topic(title)"}, "'topic' does not support nested fields"),
    ({"fields": "title("}, "fields error"),
    ({"order": "nope"}, "cannot order by 'nope' (unknown field)"),
    ({"type": DIGEST_TYPE, "order": "topic"}, "cannot order by 'topic'"),
    ({"order": "random", "offset": "2"}, "random ordering with offset is not supported"),
    ({"locale": "xx"}, "locale 'xx' is not one of: en, zh-hant"),
    ({"child_of": "abc"}, "child_of must be a non-negative integer"),
    ({"child_of": "99999999999999999999"}, "child_of must be at most"),
    ({"child_of": "999999"}, "parent page doesn't exist"),
    ({"descendant_of": "-4"}, "descendant_of must be a non-negative integer"),
    ({"ancestor_of": "x"}, "ancestor_of must be a non-negative integer"),
    ({"translation_of": "x"}, "translation_of must be a non-negative integer"),
    ({"translation_of": "999999"}, "translation_of page doesn't exist"),
    ({"search": "x", "search_operator": "xor"}, "search_operator must be 'and' or 'or'"),
    ({"search_operator": "AAA"}, "search_operator needs search"),
    ({"slug": "a" * 256}, "slug must be at most 255 characters"),
    ({"search_operator": "or"}, "search_operator needs search"),
    ({"search": "x" * 201}, "search must be at most 200 characters"),
    ({"search": " ".join("abcdefghijk")}, "search must have at most 10 words"),
    (
        {"type": DIGEST_TYPE, "reading_minutes": "abc"},
        "reading_minutes must be a non-negative integer",
    ),
    ({"type": DIGEST_TYPE, "paper": "99999999999999"}, "paper must be at most"),
    ({"first_published_at": "yesterday"}, "first_published_at must be an ISO 8601 date"),
    ({"first_published_at": "2026-02-30"}, "first_published_at must be an ISO 8601 date"),
    ({"type": DIGEST_TYPE, "body": "x"}, "cannot filter by body"),
    ({"show_in_menus": "maybe"}, "show_in_menus must be true or false"),
    ({"title": "a\x00b"}, "null characters are not allowed"),
    ({"search": "\x00"}, "null characters are not allowed"),
    ({"rich_text_format": "latex"}, "latex"),
    ({"nope": "1"}, "query parameter is not an operation or a recognised field: nope"),
    ({"type": DIGEST_TYPE, "search_text": "x"}, "not an operation or a recognised field"),
]


@pytest.mark.parametrize(("params", "message"), BAD_LISTING_PARAMS)
def test_bad_listing_parameter_is_a_400_naming_it(api_get, params, message):
    response = api_get(**params)
    assert response.status_code == 400, response.content
    assert message in response.json()["message"]


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"fields": "nope"}, "unknown fields: nope"),
        ({"locale": "xx"}, "locale 'xx' is not one of"),
        ({"limit": "x"}, "limit must be a non-negative integer"),
    ],
)
def test_bad_detail_parameter_is_a_400(api_get, params, message):
    response = api_get(f"{PAGES_URL}{digest('Odin').pk}/", **params)
    assert response.status_code == 400
    assert message in response.json()["message"]


def test_find_with_a_bad_id_is_a_400_and_an_unknown_id_a_404(api_get):
    assert api_get(f"{PAGES_URL}find/", id="abc").status_code == 400
    assert api_get(f"{PAGES_URL}find/", id="999999").status_code == 404


@pytest.mark.parametrize(
    ("path", "params", "message"),
    [
        (f"{PAGES_URL}find/", {"id": "999999"}, "nothing found for id='999999'"),
        (
            f"{PAGES_URL}find/",
            {"html_path": "/no-such/"},
            "nothing found for html_path='/no-such/'",
        ),
        (
            f"{PAGES_URL}find/",
            {"html_path": "/zh-hant/壅塞/"},
            "nothing found for html_path='/zh-hant/壅塞/'",
        ),
        ("/api/v2/papers/find/", {"id": "999999"}, "nothing found for id='999999'"),
    ],
)
def test_find_names_what_it_did_not_find(api_get, path, params, message):
    """Wagtail's 404 said only "not found"."""
    response = api_get(path, **params)
    assert response.status_code == 404
    assert response.json() == {"message": message}


def test_valid_filters_still_work(api_items):
    odin = digest("Odin")
    found = api_items(type=DIGEST_TYPE, short_name="Odin", locale="en")
    assert [item["id"] for item in found] == [odin.pk]
    assert api_items(type=DIGEST_TYPE, paper=odin.paper_id, locale="zh-hant")
    same_moment = api_items(
        type=DIGEST_TYPE,
        first_published_at=odin.first_published_at.isoformat(),
        fields="first_published_at",
        limit=100,
    )
    assert odin.pk in {item["id"] for item in same_moment}
    moments = {item["meta"]["first_published_at"] for item in same_moment}
    assert len(moments) == 1
    assert len(api_items(limit=100)) == 100
    ordered = api_items(type=DIGEST_TYPE, order="-reading_minutes", fields="reading_minutes")
    minutes = [item["reading_minutes"] for item in ordered]
    assert minutes == sorted(minutes, reverse=True)


def test_site_filter_scopes_the_listing_to_that_site(api_get):
    """`?site=` picks the site by hostname, as in stock Wagtail; an unknown one is a 404."""
    served = api_get(PAGES_URL, site="localhost", type="digests.DigestPage", limit=1)
    assert served.status_code == 200
    assert served.json()["meta"]["total_count"] == 2 * 53  # both languages of the one site
    assert (
        api_get(PAGES_URL, site="elsewhere.example", type="digests.DigestPage").status_code == 404
    )


@pytest.mark.parametrize(
    ("path", "params", "named"),
    [
        (PAGES_URL, {"locale": ["en", "zh-hant"]}, "locale"),
        (PAGES_URL, {"limit": ["1", "100"]}, "limit"),
        (f"{PAGES_URL}find/", {"html_path": ["/", "/zh-hant/"]}, "html_path"),
        ("/api/v2/papers/", {"search": ["odin", "nsdi"]}, "search"),
        ("/api/v2/images/", {"fields": ["title", "width"]}, "fields"),
    ],
)
def test_a_parameter_given_twice_is_a_400_naming_it(client, path, params, named):
    """The views read the last value silently (`locale=en&locale=zh-hant` listed zh-hant
    pages), where anything in front of them may read the first."""
    response = client.get(path, params)
    assert response.status_code == 400
    assert response.json() == {"message": f"{named} is given more than once"}


def test_a_parameter_given_twice_is_named_in_a_detail_too(client):
    response = client.get(f"{PAGES_URL}{digest('Odin').pk}/", {"fields": ["title", "slug"]})
    assert response.status_code == 400
    assert response.json() == {"message": "fields is given more than once"}


@pytest.mark.parametrize(
    ("finder", "locale", "found"),
    [
        ("html_path", "en", "en"),
        ("html_path", "zh-hant", None),
        ("html_path_zh", "zh-hant", "zh-hant"),
        ("html_path_zh", "en", None),
        ("id", "en", "en"),
        ("id", "zh-hant", None),
    ],
)
def test_find_never_redirects_to_a_detail_its_filters_rule_out(
    client, api_get, finder, locale, found
):
    """find/ keeps `locale` (or `type`) for the detail it redirects to, which filters by it: a
    page the filter rules out is not found, rather than redirected to a 404."""
    odin = digest("Odin")
    translated = odin.get_translation(odin.get_translations().get().locale)
    params = {
        "html_path": {"html_path": odin.url},
        "html_path_zh": {"html_path": translated.url},
        "id": {"id": odin.pk},
    }[finder]
    response = api_get(f"{PAGES_URL}find/", locale=locale, **params)
    if found is None:
        assert response.status_code == 404
        assert response.json()["message"].startswith("nothing found for ")
        return
    assert response.status_code == 302
    detail = client.get(response["Location"])
    assert detail.status_code == 200
    assert detail.json()["meta"]["locale"] == found


def test_find_a_paper_ruled_out_by_its_search_is_not_found(client, api_get):
    paper = digest("Odin").paper
    response = api_get("/api/v2/papers/find/", id=paper.pk, search="nosuchwordanywhere")
    assert response.status_code == 404
    found = api_get("/api/v2/papers/find/", id=paper.pk, search=paper.title.split()[0])
    assert found.status_code == 302
    assert client.get(found["Location"]).status_code == 200


@pytest.mark.parametrize("name", ["limit", "offset"])
def test_the_message_for_a_bad_count_admits_the_zero_it_accepts(api_get, name):
    assert api_get(**{name: "0"}).status_code == 200
    message = api_get(**{name: "-1"}).json()["message"]
    assert message == f"{name} must be a non-negative integer"


def test_a_date_filters_a_date_and_time_field_by_that_day(api_items):
    """?first_published_at=2026-01-31 is the pages first published that day (UTC); a date and
    time matches that instant exactly, as the description says."""
    page = digest("Odin")
    published = page.first_published_at

    def ids(value: str) -> set[int]:
        items = api_items(type=DIGEST_TYPE, locale="en", first_published_at=value, limit="100")
        return {item["id"] for item in items}

    assert page.pk in ids(published.date().isoformat())
    assert page.pk not in ids((published - timedelta(days=1)).date().isoformat())
    assert page.pk in ids(published.isoformat())
    assert page.pk not in ids((published + timedelta(seconds=1)).isoformat())


@pytest.mark.parametrize("written", ["zh-Hant", "ZH-HANT", "zh-hant"])
def test_locale_is_a_language_tag_in_any_case(client, api_get, written):
    """BCP 47 tags are case-insensitive: `zh-Hant` (the tag's usual spelling) is zh-hant, in
    listings, find/, papers and the Content-Language of what is sent."""
    odin = digest("Odin", "zh-hant")
    listing = api_get(PAGES_URL, type=DIGEST_TYPE, locale=written, short_name="Odin")
    assert listing.status_code == 200, listing.content
    assert [item["id"] for item in listing.json()["items"]] == [odin.pk]
    assert listing["Content-Language"] == "zh-hant"
    empty = api_get(PAGES_URL, locale=written, slug="none")
    assert empty["Content-Language"] == "zh-hant"

    found = api_get(f"{PAGES_URL}find/", locale=written, html_path=odin.url)
    assert found.status_code == 302
    assert client.get(found["Location"]).json()["id"] == odin.pk

    papers = api_get("/api/v2/papers/", locale=written, search="Odin", fields="venue")
    assert papers.status_code == 200, papers.content
    assert [item["id"] for item in papers.json()["items"]] == [odin.paper_id]
    assert papers["Content-Language"] == "zh-hant"
    same = api_get("/api/v2/papers/", locale="zh-hant", search="Odin", fields="venue")
    assert papers.json() == same.json()  # venue names in zh-hant too


def test_an_unknown_locale_still_names_the_configured_languages(api_get):
    response = api_get(PAGES_URL, locale="zh-Hans")
    assert response.status_code == 400
    assert response.json() == {"message": "locale 'zh-Hans' is not one of: en, zh-hant"}


def test_an_unknown_type_names_the_page_types_there_are(api_get):
    """ "type doesn't exist" named neither the value nor what would do."""
    response = api_get(PAGES_URL, type="digests.Digest")
    assert response.status_code == 400
    assert response.json() == {
        "message": "type 'digests.Digest' is not a page type; page types: wagtailcore.Page, "
        "digests.DigestIndexPage, digests.TopicPage, digests.DigestPage"
    }
