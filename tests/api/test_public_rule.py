"""The public rule's two forms agree: the query condition listings use and the check a detail
and its parent get (cms.api.visibility.PublicRule)."""

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from wagtail.models import Page

from cms.api.visibility import public_rule
from tests.support.content import digest, hide_one_of_each_kind, topic_of
from tests.support.users import member

pytestmark = pytest.mark.django_db


def rule_for(user):
    request = RequestFactory().get("/api/v2/pages/")
    request.user = user
    request.session = {}
    return public_rule(request)


@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "passes the login rule"])
def test_the_check_admits_exactly_the_pages_the_condition_selects(signed_in):
    odin = digest("Odin")
    hide_one_of_each_kind()
    rule = rule_for(member("Editors") if signed_in else AnonymousUser())
    by_condition = set(Page.objects.filter(rule.condition()).values_list("pk", flat=True))
    by_check = {page.pk for page in rule.public_among(Page.objects.all())}
    assert by_check == by_condition
    # Not agreement on nothing: a live digest and an alias in its own language are in, and
    # so is the signed-in reader's login-restricted topic; the rest of what was hidden is out.
    alias = Page.objects.get(alias_of=odin)
    placeholder = Page.objects.get(title="Only in English", locale__language_code="zh-hant")
    assert {odin.pk, alias.pk} <= by_condition
    assert placeholder.pk not in by_condition
    not_live = set(Page.objects.filter(live=False, depth__gt=1).values_list("pk", flat=True))
    assert not_live and not (not_live & by_condition)
    assert rule.passed_restriction is signed_in


def test_a_page_read_without_its_alias_target_is_checked_with_one_query(
    django_assert_num_queries,
):
    topic = topic_of(digest("Odin"))
    hide_one_of_each_kind()
    rule = rule_for(AnonymousUser())
    pages = list(Page.objects.filter(depth__gt=1))
    with django_assert_num_queries(1):  # the locales of the aliased pages, all at once
        rule.public_among(pages)
    plain = [page for page in pages if page.alias_of_id is None]
    with django_assert_num_queries(0):
        assert topic.pk in {page.pk for page in rule.public_among(plain)}
