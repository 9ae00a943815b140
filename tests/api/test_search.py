"""?search= finds digests by English and by Chinese words, inside running text, on any database."""

import pytest
from django.db import connection
from django.test import override_settings

from cms.digests.models import DigestPage
from cms.digests.search import search_text_condition
from cms.seed.parse import load_seed
from tests.support.content import DIGEST_TYPE, TOPIC_TYPE, digest

pytestmark = pytest.mark.django_db


def seed_digests_containing(seed_path, language: str, *terms: str) -> set[str]:
    """Short names of seed digests whose title or summary (any case) holds every term."""
    found = set()
    for topic in load_seed(seed_path).topics:
        for item in topic.digests:
            title = item.title.en if language == "en" else item.title.zh_hant
            summary = item.summary.en if language == "en" else item.summary.zh_hant
            text = f"{title}\n{summary}".casefold()
            if all(term.casefold() in text for term in terms):
                found.add(item.short_name)
    return found


def found_short_names(api_items, language: str, query: str, **params) -> set[str]:
    items = api_items(
        type=DIGEST_TYPE, locale=language, search=query, fields="short_name", limit=100, **params
    )
    assert {item["meta"]["locale"] for item in items} <= {language}
    return {item["short_name"] for item in items}


def test_chinese_term_finds_every_zh_digest_holding_it(api_items, seed_path):
    expected = seed_digests_containing(seed_path, "zh-hant", "壅塞")
    assert "Odin" in expected and len(expected) > 3
    assert found_short_names(api_items, "zh-hant", "壅塞") == expected


def test_chinese_term_inside_running_text(api_items, seed_path):
    expected = seed_digests_containing(seed_path, "zh-hant", "計數器")
    assert "FabricPerf" in expected
    assert found_short_names(api_items, "zh-hant", "計數器") == expected


@pytest.mark.parametrize("term", ["控制", "網路", "延遲", "一"])
def test_one_and_two_character_chinese_terms_find_every_digest_holding_them(
    api_items, seed_path, term
):
    expected = seed_digests_containing(seed_path, "zh-hant", term)
    assert expected
    assert found_short_names(api_items, "zh-hant", term) == expected


def test_two_character_terms_are_served_by_the_pair_index_on_postgresql():
    """PostgreSQL gets the pair condition in the exact form its index holds. (The plan uses the
    index once other scans are ruled out: the suite's few pages would otherwise be read in one
    scan.) Other databases get the plain LIKE."""
    matches = DigestPage.objects.filter(search_text_condition(["壅塞"])).order_by()
    sql, params = matches.values("pk").query.sql_with_params()
    if connection.vendor != "postgresql":
        assert "digests_bigrams" not in sql
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT digests_bigrams(%s)", ["壅塞控制"])
        assert sorted(cursor.fetchone()[0]) == sorted(["壅塞", "塞控", "控制"])
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute("SET LOCAL enable_indexscan = off")
        cursor.execute(f"EXPLAIN {sql}", params)
        plan = "\n".join(row[0] for row in cursor.fetchall())
    assert "Bitmap Index Scan on digests_digestpage_search_bigrams" in plan, plan


def test_english_words_all_must_match_in_any_case(api_items, seed_path):
    expected = seed_digests_containing(seed_path, "en", "congestion", "control")
    assert "Odin" in expected
    assert found_short_names(api_items, "en", "Congestion CONTROL") == expected


def test_search_operator_or_matches_any_word(api_items, seed_path):
    expected = seed_digests_containing(seed_path, "en", "nvlink") | seed_digests_containing(
        seed_path, "en", "incast"
    )
    found = found_short_names(api_items, "en", "NVLink incast", search_operator="or")
    assert found == expected and len(expected) >= 2


def test_search_without_type_finds_topics_and_digests(api_items):
    items = api_items(search="伺服器內部", locale="zh-hant")
    assert TOPIC_TYPE in {item["meta"]["type"] for item in items}


def test_search_follows_published_edits(api_items):
    page = digest("Odin")
    page.summary = "Explains the zeppelin effect."
    page.save_revision().publish()
    assert found_short_names(api_items, "en", "zeppelin") == {"Odin"}
    page.summary = "Now about dirigibles."
    page.save_revision()  # a draft: the live page still says zeppelin
    assert found_short_names(api_items, "en", "dirigibles") == set()
    assert found_short_names(api_items, "en", "zeppelin") == {"Odin"}


def test_search_can_be_disabled(api_get):
    with override_settings(WAGTAILAPI_SEARCH_ENABLED=False):
        response = api_get(type=DIGEST_TYPE, search="odin")
    assert response.status_code == 400
    assert response.json() == {"message": "search is disabled"}


def test_blank_search_finds_nothing(api_items):
    assert api_items(type=DIGEST_TYPE, search="   ") == []
