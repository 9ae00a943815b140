"""The seed import: both languages, exact strings, idempotency, and clear errors on bad input.

Hostile files are in test_import_files.py, the progress bar in test_import_progress.py.
"""

import io

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.urls import reverse
from wagtail.models import Locale, Page, ReferenceIndex, Revision
from wagtail.search.backends import get_search_backend
from wagtail_localize.models import StringTranslation, Translation, TranslationSource

from cms.digests.models import DigestIndexPage, DigestPage, TopicPage
from cms.papers.models import Paper
from cms.seed.parse import load_seed
from cms.translation.workflow.prefill import publish_translation
from cms.translation.workflow.sync import sync_translation_sources

pytestmark = pytest.mark.django_db


def _counts():
    return {
        "pages": Page.objects.count(),
        "revisions": Revision.objects.count(),
        "translations": Translation.objects.count(),
        "string_translations": StringTranslation.objects.count(),
        "papers": Paper.objects.count(),
    }


def _like_first(data: dict, short_name: str, title: str, zh_title: str) -> dict:
    """A new digest for the seed: its first digest under another short name and title."""
    return dict(
        data["topics"][0]["digests"][0],
        short_name=short_name,
        title={"en": title, "zh-hant": zh_title},
    )


def test_seed_is_imported_in_both_languages(seed_path):
    seed = load_seed(seed_path)
    for lang in ("en", "zh-hant"):
        assert DigestPage.objects.filter(locale__language_code=lang, live=True).count() == 53
        assert TopicPage.objects.filter(locale__language_code=lang, live=True).count() == 11
        assert DigestIndexPage.objects.filter(locale__language_code=lang).count() == 1
    for topic in seed.topics:
        for digest in topic.digests:
            en = DigestPage.objects.get(locale__language_code="en", short_name=digest.short_name)
            zh = en.get_translation(en.locale.__class__.objects.get(language_code="zh-hant"))
            assert (en.title, en.summary) == (digest.title.en, digest.summary.en)
            assert (zh.title, zh.specific.summary) == (digest.title.zh_hant, digest.summary.zh_hant)
            assert zh.specific.paper_id == en.paper_id
            assert en.get_parent().title == topic.name.en


def test_translations_are_complete_in_wagtail_localize():
    seed = load_seed()
    translations = Translation.objects.select_related("source")
    # One per translated page: the index, each topic and each digest.
    assert translations.count() == 1 + len(seed.topics) + sum(len(t.digests) for t in seed.topics)
    for translation in translations:
        total, done = translation.get_progress()
        assert total > 0
        assert done == total, translation.source.object_repr


def test_second_run_creates_nothing():
    before = _counts()
    call_command("import_digests", verbosity=0)
    call_command("import_digests", "--update", verbosity=0)
    assert _counts() == before


def test_update_restores_seed_text_and_translation_follows(seed_path):
    page = DigestPage.objects.get(locale__language_code="en", short_name="Odin")
    page.reading_minutes = 99
    page.summary = "Edited by hand."
    page.save_revision().publish()
    call_command("import_digests", verbosity=0)
    page.refresh_from_db()
    assert page.summary == "Edited by hand."  # default mode keeps editors' work
    call_command("import_digests", "--update", verbosity=0)
    page.refresh_from_db()
    zh = DigestPage.objects.get(
        locale__language_code="zh-hant", translation_key=page.translation_key
    )
    assert page.summary.startswith("Explain why MoE all-to-all traffic")
    assert page.reading_minutes == zh.reading_minutes == 11


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (
            lambda d: d["topics"][2]["digests"][1].update(year="2026"),
            "topic 3 'Parallelism and MoE', digest 'ByteScale': field 'year'",
        ),
        (lambda d: d["topics"][0]["digests"][0]["title"].pop("zh-hant"), "field 'title.zh-hant'"),
        (lambda d: d["topics"][1]["digests"][0].update(venue="HotNets"), "field 'venue'"),
        (
            lambda d: d["topics"][1].pop("digests"),
            "topic 2 'Workloads and traces': field 'digests'",
        ),
        (
            lambda d: d["topics"][0]["digests"][0]["title"].update({"zh-hant": "長" * 256}),
            "field 'title.zh-hant' must be at most 255 characters, got 256",
        ),
        (
            lambda d: d["topics"][0]["name"].update(en="x" * 300),
            "field 'name.en' must be at most 255 characters, got 300",
        ),
        (
            lambda d: d["topics"][0]["digests"][0].update(short_name="S" * 101),
            "field 'short_name' must be at most 100 characters, got 101",
        ),
        (
            lambda d: d["topics"][0]["digests"][0].update(affiliations=["ok", "u" * 301]),
            "field 'affiliations[1]' must be at most 300 characters, got 301",
        ),
    ],
)
def test_malformed_file_changes_nothing_and_names_the_problem(seed_copy, mutate, message):
    mutate(seed_copy.data)
    bad = seed_copy.write("bad.json")
    before = _counts()
    with pytest.raises(CommandError) as error:
        call_command("import_digests", str(bad), "--update", verbosity=0)
    assert str(bad) in str(error.value)
    assert message in str(error.value)
    assert _counts() == before


def test_invalid_json_names_line(tmp_path):
    bad = tmp_path / "broken.json"
    bad.write_text('{"site": {', encoding="utf-8")
    with pytest.raises(CommandError, match=r"broken\.json: not valid JSON at line 1"):
        call_command("import_digests", str(bad), verbosity=0)


def test_failure_midway_rolls_back_everything(seed_copy, monkeypatch):
    """A fault after pages were written leaves the database as it was."""
    data = seed_copy.data
    data["topics"][0]["digests"].append(_like_first(data, "NewSystem", "A New Title", "新標題"))
    data["topics"].append(
        {
            "name": {"en": "New topic", "zh-hant": "新主題"},
            "digests": [_like_first(data, "Later", "Later", "稍後")],
        }
    )
    extended = seed_copy.write("extended.json")

    from cms.seed import importer

    real_paper = importer.SeedImporter._paper

    def failing_paper(self, seed):
        if seed.short_name == "Later":
            raise RuntimeError("disk full")
        return real_paper(self, seed)

    monkeypatch.setattr(importer.SeedImporter, "_paper", failing_paper)
    before = _counts()
    with pytest.raises(CommandError, match="nothing was changed: disk full"):
        call_command("import_digests", str(extended), verbosity=0)
    assert _counts() == before
    assert not DigestPage.objects.filter(short_name="NewSystem").exists()


def test_import_bumps_the_api_content_version_once(seed_copy, django_capture_on_commit_callbacks):
    from cms.api.version import _set_new_version

    data = seed_copy.data
    data["topics"][0]["digests"].append(_like_first(data, "OneBump", "One", "一"))
    extended = seed_copy.write("extended.json")
    with django_capture_on_commit_callbacks() as callbacks:
        call_command("import_digests", str(extended), "--update", verbosity=0)
    assert DigestPage.objects.filter(short_name="OneBump").count() == 2
    assert (
        sum(1 for callback in callbacks if getattr(callback, "func", None) is _set_new_version) == 1
    )


def test_page_tree_stays_consistent():
    """Bulk translation inside one transaction must not corrupt treebeard's counters."""
    assert all(not problems for problems in Page.find_problems())
    for page in Page.objects.filter(locale__language_code="zh-hant"):
        assert page.numchild == page.get_children().count(), page.title


def test_translators_work_survives_a_plain_import_and_update_restores_the_seed(seed_path):
    """`make run` imports on every start: a translator's edit and an out-of-date status stay."""
    from cms.translation.status.statuses import translation_status
    from cms.translation.workflow.prefill import publish_translation

    en = DigestPage.objects.get(locale__language_code="en", short_name="Odin")
    zh = DigestPage.objects.get(locale__language_code="zh-hant", translation_key=en.translation_key)
    translation = Translation.objects.get(
        source__object_id=en.translation_key, target_locale=zh.locale
    )
    title = StringTranslation.objects.get(
        translation_of__segments__source=translation.source,
        translation_of__segments__context__path="title",
        locale=zh.locale,
    )
    title.data = "譯者改寫的標題"
    title.tool_name = ""
    title.save()
    publish_translation(translation)
    en.summary = "An editor's English change, not yet synced to the translation."
    en.save_revision().publish()
    assert translation_status(zh).state == "out_of_date"

    call_command("import_digests", verbosity=0)
    zh.refresh_from_db()
    title.refresh_from_db()
    assert zh.title == title.data == "譯者改寫的標題"
    assert translation_status(zh).state == "out_of_date"  # the import did not sync it silently

    call_command("import_digests", "--update", verbosity=0)
    zh.refresh_from_db()
    seed_title = next(
        d.title.zh_hant
        for t in load_seed(seed_path).topics
        for d in t.digests
        if d.short_name == "Odin"
    )
    assert zh.title == seed_title


def _planner_statistics(table: str) -> int:
    """Rows of the database's planner statistics for `table` (what ANALYZE writes)."""
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE name = 'sqlite_stat1'")
            if cursor.fetchone() is None:
                return 0
            cursor.execute("SELECT count(*) FROM sqlite_stat1 WHERE tbl = %s", [table])
        else:
            cursor.execute("SELECT count(*) FROM pg_stats WHERE tablename = %s", [table])
        return cursor.fetchone()[0]


def _forget_planner_statistics(table: str) -> None:
    from django.db import connection

    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            if _planner_statistics(table):
                cursor.execute("DELETE FROM sqlite_stat1 WHERE tbl = %s", [table])
        else:
            cursor.execute("DELETE FROM pg_statistic WHERE starelid = %s::regclass", [table])


def test_an_import_that_creates_pages_refreshes_the_planner_statistics(seed_copy):
    """Without them the translation status query picks a bad index (cms.seed.importer)."""
    table = StringTranslation._meta.db_table
    data = seed_copy.data
    data["topics"][0]["digests"].append(_like_first(data, "NewSystem", "A New Title", "新標題"))
    extended = seed_copy.write("extended.json")
    _forget_planner_statistics(table)
    assert _planner_statistics(table) == 0
    call_command("import_digests", verbosity=0)  # creates nothing: statistics left alone
    assert _planner_statistics(table) == 0
    call_command("import_digests", str(extended), verbosity=0)
    assert _planner_statistics(table) > 0


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
        _digest(first, "Newfirst", "A first new digest", "第一篇新導讀"),
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
    Page.objects.filter(pk=zh_sibling.pk).update(slug="newfirst")
    return seed_copy.write("extended.json")


def _import(*args) -> str:
    """Run import_digests; its output (the summary)."""
    out = io.StringIO()
    call_command("import_digests", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


def test_new_digests_and_topics_get_published_translations(extended_seed):
    output = _import(str(extended_seed))

    assert "pages created: 6, pages kept: 65, papers created: 4, translations created: 6" in output
    zh = Locale.objects.get(language_code="zh-hant")
    new = DigestPage.objects.get(short_name="Newfirst", locale__language_code="en")
    assert new.get_translation(zh).slug == "newfirst-1"
    same = DigestPage.objects.get(short_name="Samepaper", locale__language_code="en")
    assert same.paper.digests.filter(locale__language_code="en").count() == 2
    seeded = {d.short_name: d for t in load_seed(extended_seed).topics for d in t.digests}
    assert new.paper.title == "A first new digest"
    assert tuple(new.paper.affiliations.values_list("name", flat=True)) == (
        seeded["Newfirst"].affiliations
    )
    topic = TopicPage.objects.get(slug="a-new-topic", locale__language_code="en")
    assert topic.get_translation(zh).title == "新主題"
    for page in [topic, *DigestPage.objects.child_of(topic)]:
        translated = page.get_translation(zh).specific
        assert translated.live and not translated.has_unpublished_changes, page.title
        assert translated.get_parent().pk == page.get_parent().get_translation(zh).pk
        translation = Translation.objects.get(
            source=TranslationSource.objects.get_for_instance(page), target_locale=zh
        )
        total, done = translation.get_progress()
        assert total == done > 0, page.title
    assert DigestPage.objects.get(
        short_name="Newtopic2", locale__language_code="zh-hant"
    ).summary == ("Newtopic2 說明什麼。")
    assert all(not problems for problems in Page.find_problems())


def test_imported_translations_open_in_the_editor(extended_seed, client):
    call_command("import_digests", str(extended_seed), verbosity=0)
    topic = TopicPage.objects.get(slug="a-new-topic", locale__language_code="en")
    zh = Locale.objects.get(language_code="zh-hant")
    admin = get_user_model().objects.create_superuser("importadmin", "a@example.com", "pw")
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


def test_import_under_a_topic_whose_translation_was_deleted(seed_copy):
    """The zh-hant topic comes back (as an alias of the English one); new digests go under it."""
    topic = TopicPage.objects.get(slug="parallelism-and-moe", locale__language_code="en")
    topic.get_translation(Locale.objects.get(language_code="zh-hant")).delete()
    data = seed_copy.data
    template = data["topics"][2]["digests"][0]
    data["topics"][2]["digests"].append(_digest(template, "Orphan", "An orphan", "孤兒"))

    call_command("import_digests", str(seed_copy.write("orphan.json")), verbosity=0)

    page = DigestPage.objects.get(short_name="Orphan", locale__language_code="en")
    zh = page.get_translation(Locale.objects.get(language_code="zh-hant"))
    assert zh.title == "孤兒" and zh.live
    assert zh.get_parent().translation_key == topic.translation_key
    assert all(not problems for problems in Page.find_problems())


def test_imported_pages_and_papers_are_in_the_search_index(extended_seed):
    call_command("import_digests", str(extended_seed), verbosity=0)
    for language in ("en", "zh-hant"):
        page = DigestPage.objects.get(short_name="Newtopic0", locale__language_code=language)
        found = DigestPage.objects.live().filter(locale=page.locale).search(page.title)
        assert page.pk in [hit.pk for hit in found], language
    paper = DigestPage.objects.get(short_name="Newtopic0", locale__language_code="en").paper
    assert paper in list(get_search_backend().search("New topic digest 0", Paper))


def test_imported_pages_are_in_the_reference_index(extended_seed):
    call_command("import_digests", str(extended_seed), verbosity=0)
    for language in ("en", "zh-hant"):
        page = DigestPage.objects.get(short_name="Newtopic0", locale__language_code=language)
        usage = ReferenceIndex.get_references_to(page.paper)
        assert page.pk in {int(reference.object_id) for reference in usage}, language


@pytest.mark.parametrize("update", [True, False])
def test_a_digest_moved_to_another_topic_in_the_file_is_not_duplicated(seed_copy, update):
    """Moving a digest between topics in the file made a second live page of it under the
    new topic (and its translation), the old one still live: two FabricPerf digests."""
    topics = seed_copy.data["topics"]
    moved = topics[0]["digests"].pop(0)
    topics[1]["digests"].append(moved)
    en = DigestPage.objects.get(short_name=moved["short_name"], locale__language_code="en")
    zh = en.get_translation(Locale.objects.get(language_code="zh-hant"))
    old_topic = en.get_parent()
    new_topic = TopicPage.objects.get(slug="workloads-and-traces", locale=en.locale)
    pages_before = Page.objects.count()
    args = [str(seed_copy.write("moved.json"))] + (["--update"] if update else [])
    out = io.StringIO()
    call_command("import_digests", *args, verbosity=1, stdout=out, stderr=io.StringIO())

    assert Page.objects.count() == pages_before
    digests = DigestPage.objects.filter(short_name=moved["short_name"])
    assert sorted(digests.values_list("pk", flat=True)) == sorted([en.pk, zh.pk])
    en.refresh_from_db()
    zh.refresh_from_db()
    assert en.live and zh.live
    expected_parent = new_topic if update else old_topic
    assert en.get_parent().pk == expected_parent.pk
    assert zh.get_parent().pk == expected_parent.get_translation(zh.locale).pk
    assert ("pages moved: 1" in out.getvalue()) == update
