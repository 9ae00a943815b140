"""An editor's table in a digest body: a row wider than the header row is refused on that row,
as the reader would show its extra cells under no heading."""

import pytest
from django.urls import reverse
from wagtail.test.utils.form_data import streamfield

from cms.digests.models import DigestPage
from cms.translation.policy.roles import EDITORS
from tests.support.admin_forms import digest_form
from tests.support.users import member

pytestmark = pytest.mark.django_db


def list_block(values: list) -> dict:
    data = {"count": len(values)}
    for number, value in enumerate(values):
        data.update({f"{number}-value": value, f"{number}-deleted": "", f"{number}-order": number})
        data[f"{number}-id"] = ""
    return data


def table(header: list[str], rows: list[list[str]]) -> dict:
    return {
        "caption": "Throughput",
        "header": list_block(header),
        "rows": list_block([list_block(row) for row in rows]),
    }


def post_table(client, header, rows):
    digest = DigestPage.objects.filter(locale__language_code="en").first()
    client.force_login(member(EDITORS))
    data = digest_form(digest, body=streamfield([("table", table(header, rows))]))
    response = client.post(reverse("wagtailadmin_pages:edit", args=[digest.pk]), data)
    return digest, response


def test_a_row_wider_than_the_header_is_refused(client):
    digest, response = post_table(client, ["System", "Gbit/s"], [["A", "10"], ["B", "20", "oops"]])
    assert response.status_code == 200
    errors = response.context["form"].errors["body"].as_data()[0]
    row_errors = errors.block_errors[0].block_errors["rows"].block_errors
    assert list(row_errors) == [1]  # the second row only
    assert not DigestPage.objects.get(pk=digest.pk).get_latest_revision_as_object().body


def test_rows_as_wide_as_the_header_or_narrower_are_saved(client):
    digest, response = post_table(client, ["System", "Gbit/s"], [["A", "10"], ["B", ""], ["C"]])
    assert response.status_code == 302
    body = DigestPage.objects.get(pk=digest.pk).get_latest_revision_as_object().body
    assert [list(row) for row in body[0].value["rows"]] == [["A", "10"], ["B", ""], ["C"]]
