"""New pages go through the bulk path, which must write what the per-page path writes.

The per-page path is Wagtail's add_child / save_revision / publish and wagtail-localize's
update_or_create_from_instance / create_or_update_translation, one page at a time; the bulk path
(cms.digests.bulk_pages, cms.translation.bulk_prefill) writes the same rows per table. Each
comparison runs both from the same state, the per-page one rolled back, and compares every row
they leave (tests/digests/import_snapshot.py).
"""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import transaction
from django.urls import reverse
from wagtail.models import Locale, Page
from wagtail_localize.models import StringTranslation, Translation, TranslationSource

from cms.digests import importer
from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper
from cms.translation import bulk_prefill
from cms.translation.prefill import publish_translation
from cms.translation.sync import sync_translation_sources

from .import_snapshot import differences, snapshot

pytestmark = pytest.mark.django_db


class _RolledBack(Exception):
    pass


def _digest(template: dict, short_name: str, title: str, zh_title: str) -> dict:
    return dict(
        template,
        short_name=short_name,
        title={"en": title, "zh-hant": zh_title},
        summary={"en": f"What {short_name} explains.", "zh-hant": f"{short_name} 說明什麼。"},
    )


@pytest.fixture
def extended_seed(seed_copy):
    """The shipped seed plus new digests in an existing topic and in a new topic.

    One new digest shares its paper's title, venue and year with a stored paper (reused, not
    created); another's slug is already taken by a zh-hant page of its topic (the translation
    gets another slug, as Wagtail's find_available_slug gives it).
    """
    data = seed_copy.data
    first = data["topics"][0]["digests"][0]
    paper = Paper.objects.get(title=first["title"]["en"])
    data["topics"][0]["digests"] += [
        _digest(first, "Bulkfirst", "A first new digest", "第一篇新導讀"),
        dict(
            _digest(first, "Samepaper", first["title"]["en"], "同一篇論文"),
            venue=paper.venue,
            year=paper.year,
        ),
    ]
    data["topics"].append(
        {
            "name": {"en": "A new topic", "zh-hant": "新主題"},
            "digests": [
                _digest(
                    first, f"Newtopic{number}", f"New topic digest {number}", f"新主題導讀 {number}"
                )
                for number in range(3)
            ],
        }
    )
    zh_sibling = DigestPage.objects.filter(locale__language_code="zh-hant").get(
        translation_key=DigestPage.objects.get(
            short_name=first["short_name"], locale__language_code="en"
        ).translation_key
    )
    Page.objects.filter(pk=zh_sibling.pk).update(slug="bulkfirst")
    return seed_copy.write("extended.json")


def _per_page_only(monkeypatch):
    monkeypatch.setattr(importer.SeedImporter, "_bulk_batch", lambda self, parent, pages: None)


def _import(*args) -> str:
    """Run import_digests; its output (progress lines and the summary)."""
    out = io.StringIO()
    call_command("import_digests", *args, stdout=out)
    return out.getvalue()


def _per_page_import_rolled_back(monkeypatch, *args) -> tuple[dict, str]:
    """Import with the bulk path switched off; the snapshot and output, then roll it back."""
    try:
        with transaction.atomic(), monkeypatch.context() as patch:
            _per_page_only(patch)
            output = _import(*args)
            taken = snapshot()
            raise _RolledBack
    except _RolledBack:
        pass
    return taken, output


@pytest.fixture
def bulk_calls(monkeypatch):
    """How many pages went through the bulk translation path."""
    calls = []
    real = bulk_prefill.translate_new_pages

    def counting(items, **kwargs):
        calls.extend(item.page.pk for item in items)
        return real(items, **kwargs)

    monkeypatch.setattr(importer, "translate_new_pages", counting)
    return calls


def test_bulk_import_writes_what_the_per_page_import_writes(extended_seed, monkeypatch, bulk_calls):
    per_page, per_page_output = _per_page_import_rolled_back(monkeypatch, str(extended_seed))
    assert not DigestPage.objects.filter(short_name="Bulkfirst").exists()  # rolled back

    output = _import(str(extended_seed))
    bulk = snapshot()

    assert len(bulk_calls) == 6  # 2 digests, then the new topic, then its 3 digests
    assert differences(per_page, bulk) == {}
    assert output == per_page_output
    assert "[  4/58] Bulkfirst: created" in output
    assert "pages created: 6, pages kept: 65, papers created: 4, translations created: 6" in output
    zh = Locale.objects.get(language_code="zh-hant")
    new = DigestPage.objects.get(short_name="Bulkfirst", locale__language_code="en")
    assert new.get_translation(zh).slug == "bulkfirst-1"
    same = DigestPage.objects.get(short_name="Samepaper", locale__language_code="en")
    assert same.paper.digests.filter(locale__language_code="en").count() == 2
    assert all(not problems for problems in Page.find_problems())


def test_bulk_imported_translations_are_complete_and_open_in_the_editor(extended_seed, client):
    call_command("import_digests", str(extended_seed), verbosity=0)
    topic = TopicPage.objects.get(slug="a-new-topic", locale__language_code="en")
    zh = Locale.objects.get(language_code="zh-hant")
    for page in [topic, *DigestPage.objects.child_of(topic)]:
        source = TranslationSource.objects.get_for_instance(page)
        translation = Translation.objects.get(source=source, target_locale=zh)
        total, done = translation.get_progress()
        assert total == done > 0, page.title
    admin = get_user_model().objects.create_superuser("bulkadmin", "a@example.com", "pw")
    client.force_login(admin)
    digest_zh = DigestPage.objects.child_of(topic).first().get_translation(zh)
    response = client.get(reverse("wagtailadmin_pages:edit", args=[digest_zh.pk]))
    assert response.status_code == 200
    html = response.content.decode()
    assert "新主題導讀 0" in html and "New topic digest 0" in html  # translation and its source


def test_sync_keeps_the_translation_of_unchanged_segments(extended_seed):
    call_command("import_digests", str(extended_seed), verbosity=0)
    page = DigestPage.objects.get(short_name="Newtopic1", locale__language_code="en")
    zh_summary = page.get_translation(Locale.objects.get(language_code="zh-hant")).specific.summary
    page.summary = "A summary edited after the import."
    page.save_revision().publish()
    source = TranslationSource.objects.get_for_instance(page)

    sync_translation_sources(source_ids=[source.pk])
    publish_translation(source.translations.get())

    zh = page.get_translation(Locale.objects.get(language_code="zh-hant")).specific
    assert zh.title == "新主題導讀 1"  # the translator's (seed's) work on the title survives
    # The changed summary keeps its previous translation, marked for review (machine).
    assert zh.summary == zh_summary
    assert (
        StringTranslation.objects.get(
            context__object_id=page.translation_key,
            context__path="summary",
            translation_of__data="A summary edited after the import.",
        ).translation_type
        == StringTranslation.TRANSLATION_TYPE_MACHINE
    )
    assert StringTranslation.objects.filter(
        context__object_id=page.translation_key, context__path="title", data="新主題導讀 1"
    ).exists()


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda digest: digest.update(title={"en": "x" * 300, "zh-hant": "長"}), "at most 255"),
        (lambda digest: digest.update(short_name="Samenew two"), "'samenew-two' is already in use"),
        # No expected text: the per-page path's own message differs by database (SQLite:
        # wagtail-localize's error handling fails on it; PostgreSQL: the column overflows).
        (lambda digest: digest["title"].update({"zh-hant": "長" * 300}), None),
    ],
)
def test_a_batch_the_bulk_path_cannot_take_fails_as_the_per_page_path_does(
    seed_copy, monkeypatch, bulk_calls, mutate, message
):
    """Bad values and slugs in use go to the per-page path, which names them; nothing is kept."""
    data = seed_copy.data
    template = data["topics"][0]["digests"][0]
    first = _digest(template, "Samenew-two", "A title", "標題")
    second = _digest(template, "Other", "Another title", "另一個標題")
    mutate(second)
    data["topics"].append(
        {"name": {"en": "Bad batch", "zh-hant": "壞批次"}, "digests": [first, second]}
    )
    bad = seed_copy.write("bad.json")
    before = snapshot()

    with pytest.raises(CommandError) as bulk_error:
        call_command("import_digests", str(bad), verbosity=0)
    with monkeypatch.context() as patch, pytest.raises(CommandError) as per_page_error:
        _per_page_only(patch)
        call_command("import_digests", str(bad), verbosity=0)

    assert str(bulk_error.value) == str(per_page_error.value)
    if message is not None:
        assert message in str(bulk_error.value)
    assert differences(before, snapshot()) == {}


def test_bulk_import_under_a_topic_whose_translation_was_deleted(
    seed_copy, monkeypatch, bulk_calls
):
    """The per-page path restores the zh-hant topic (as an alias); new digests go under it."""
    topic = TopicPage.objects.get(slug="parallelism-and-moe", locale__language_code="en")
    topic.get_translation(Locale.objects.get(language_code="zh-hant")).delete()
    data = seed_copy.data
    template = data["topics"][2]["digests"][0]
    data["topics"][2]["digests"].append(_digest(template, "Orphan", "An orphan", "孤兒"))
    path = seed_copy.write("orphan.json")
    per_page, per_page_output = _per_page_import_rolled_back(monkeypatch, str(path))

    output = _import(str(path))

    assert len(bulk_calls) == 1
    assert differences(per_page, snapshot()) == {}
    assert output == per_page_output
    page = DigestPage.objects.get(short_name="Orphan", locale__language_code="en")
    zh = page.get_translation(Locale.objects.get(language_code="zh-hant"))
    assert zh.title == "孤兒" and zh.live
