"""The seeded glossary: at least 40 terms, every pair found in the seed's own translations."""

import json

import pytest

from cms.seed.parse import DEFAULT_SEED_PATH
from cms.terminology.glossary import Term, find_terms
from cms.terminology.models import GlossaryTerm

pytestmark = pytest.mark.django_db


def seed_pairs() -> list[tuple[str, str]]:
    """(English, zh-hant) text of each topic and digest in the shipped seed."""
    seed = json.loads(DEFAULT_SEED_PATH.read_text(encoding="utf-8"))
    pairs = []
    for topic in seed["topics"]:
        pairs.append((topic["name"]["en"], topic["name"]["zh-hant"]))
        for digest in topic["digests"]:
            for field in ("title", "summary"):
                pairs.append((digest[field]["en"], digest[field]["zh-hant"]))
    return pairs


def test_the_glossary_is_seeded_with_at_least_40_terms():
    assert GlossaryTerm.objects.count() >= 40


def test_every_seeded_pair_occurs_in_the_seed_translations():
    pairs = seed_pairs()
    unverified = []
    for stored in GlossaryTerm.objects.all():
        term = Term.of(stored)
        found = [(en, zh) for en, zh in pairs if any(t is term for t, *_ in find_terms(en, [term]))]
        if not any(term.chinese.lower() in zh.lower() for _en, zh in found):
            unverified.append(term.english)
    assert unverified == []


def test_no_forbidden_variant_occurs_in_the_seed():
    zh_text = "\n".join(zh for _en, zh in seed_pairs())
    used = [
        (term.english, variant)
        for term in GlossaryTerm.objects.all()
        for variant in term.forbidden
        if variant in zh_text
    ]
    assert used == []


def test_taiwan_usage_for_congestion_control():
    term = GlossaryTerm.objects.get(english="congestion control")
    assert term.chinese == "壅塞控制"
    assert "拥塞控制" in term.forbidden
