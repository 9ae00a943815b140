"""`set_site_address`: the default site's host and port, which every page's html_url starts with."""

import pytest
from django.core.management import CommandError, call_command
from wagtail.models import Site

from tests.support.content import PAGES_URL, digest

pytestmark = pytest.mark.django_db


def html_urls(client, short_name: str) -> list[str]:
    english = digest(short_name)
    urls = []
    for page in english.get_translations(inclusive=True).order_by("locale__language_code"):
        urls.append(client.get(f"{PAGES_URL}{page.pk}/").json()["meta"]["html_url"])
    return urls


@pytest.mark.parametrize(
    ("url", "root"),
    [
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000"),
        ("https://digests.example.org/", "https://digests.example.org"),
        ("http://digests.example.org:8080", "http://digests.example.org:8080"),
    ],
)
def test_html_urls_follow_the_site_address_in_both_languages(client, url, root):
    call_command("set_site_address", url)
    site = Site.objects.get(is_default_site=True)
    assert site.root_url == root
    topic = digest("Odin").get_parent().slug
    assert html_urls(client, "Odin") == [f"{root}/{topic}/odin/", f"{root}/zh-hant/{topic}/odin/"]


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("digests.example.org", "must start with http:// or https://"),
        ("ftp://digests.example.org", "must start with http:// or https://"),
        ("https://digests.example.org:99999", "the port is not a number"),
        ("https://", "has no host name"),
        ("https://digests.example.org/reader/", "without a path or query"),
        ("https://digests.example.org/?a=1", "without a path or query"),
        ("https://digests.example.org:0", "the port is not a number"),
        ("https://digests example.org", "the host name is not valid"),
        ("https://digests.example.org,x", "the host name is not valid"),
        ("http://[::1", "the host name is not valid"),
        ("https://ops:secret@digests.example.org", "a host name and port only"),
    ],
)
def test_a_bad_address_is_refused_with_what_is_wrong_and_changes_nothing(url, says):
    before = Site.objects.values_list("hostname", "port").get(is_default_site=True)
    with pytest.raises(CommandError) as error:
        call_command("set_site_address", url)
    assert str(error.value).startswith(f"{url}: ") and says in str(error.value)
    assert Site.objects.values_list("hostname", "port").get(is_default_site=True) == before


def test_an_address_another_site_has_is_refused():
    default = Site.objects.get(is_default_site=True)
    Site.objects.create(hostname="other.example.org", port=443, root_page=default.root_page)
    with pytest.raises(CommandError) as error:
        call_command("set_site_address", "https://other.example.org")
    assert str(error.value) == "Another site already has other.example.org:443."
    default.refresh_from_db()
    assert default.hostname != "other.example.org"
