"""Every admin URL that can change what is live, for each role, judged by the database afterwards.

Each case names one admin URL (Wagtail's views, its bulk actions, its admin API's page actions
under /admin/api/main/pages/<id>/action/, wagtail-localize's views), how to call it, the roles that
may use it and what must be true in the database when it was used. For every other role (an
administrator included, where the policy refuses everyone, and an anonymous client) nothing that
readers or translators could see may have changed: no page row, revision, alias, paper or
translation, and no answer of the public API. A GET never changes anything, for anyone.

Requests run with their on-commit callbacks executed, because wagtail-localize publishes from
one (`transaction.on_commit(revision.publish)`) and a test transaction would otherwise hide it.
"""

from collections.abc import Callable
from dataclasses import dataclass, field

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from wagtail.models import Locale, Page, Revision, Workflow
from wagtail_localize.machine_translators import get_machine_translator
from wagtail_localize.models import (
    StringSegment,
    StringTranslation,
    Translation,
    TranslationSource,
)

from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper
from cms.translation.policy import rules as policy
from cms.translation.workflow.prefill import prefill_page_translation, publish_translation
from cms.translation.workflow.previous import previous_translation_tool_name
from tests.support.admin_forms import digest_form, paper_form
from tests.support.factories import DRAFT, PUBLISHED, DigestPageFactory, PaperFactory

pytestmark = pytest.mark.django_db

EDITOR, TRANSLATOR, SUPERUSER, ANONYMOUS = "editor", "translator", "superuser", "anonymous"
ROLES = (EDITOR, TRANSLATOR, SUPERUSER, ANONYMOUS)
SIMPLIFIED = "说明资料中心網路"


@dataclass
class World:
    """The pages and objects the cases act on, made once per test."""

    en: DigestPage  # a live English digest with a live zh-hant translation
    zh: DigestPage
    other_topic_en: TopicPage
    new_en: DigestPage  # a live English digest not yet translated
    orphan_zh: DigestPage  # a live zh-hant digest whose English page was deleted
    zh_locale: Locale
    zh_topic: int  # the zh-hant topics of en's topic and of other_topic_en
    zh_other_topic: int
    values: dict = field(default_factory=dict)

    def source_id(self) -> int:
        return Translation.objects.get(
            source__object_id=self.en.translation_key, target_locale=self.zh_locale
        ).source_id

    def translation(self) -> Translation:
        return Translation.objects.get(
            source__object_id=self.en.translation_key, target_locale=self.zh_locale
        )


def _fresh(page: Page) -> Page:
    return Page.objects.filter(pk=page.pk).specific().first()


def _bulk(action: str, page: Page) -> str:
    url = reverse("wagtail_bulk_action", args=["wagtailcore", "page", action])
    return f"{url}?id={page.pk}"


def _zh_drafts_of(page: Page) -> Page | None:
    return page.get_translations().filter(locale__language_code="zh-hant").first()


def _changed_english(world: World) -> None:
    """An English edit of a synchronized field, published, for a sync to bring over."""
    world.en.reading_minutes = 41
    world.en.save_revision().publish()


def _simplify(world: World) -> None:
    StringTranslation.objects.filter(
        locale=world.zh_locale, context__object_id=world.en.translation_key, context__path="summary"
    ).update(data=SIMPLIFIED)


def _draft(page: Page, **changes) -> None:
    page = _fresh(page)
    for name, value in changes.items():
        setattr(page, name, value)
    page.save_revision()


def _changed_english_and_sync(world: World) -> None:
    from cms.translation.workflow.sync import sync_translation_sources

    world.en.summary = "A changed English summary."
    _changed_english(world)
    sync_translation_sources(source_ids=[world.source_id()])


def _api(action: str, page: Callable[["World"], int]) -> Callable[["World"], str]:
    """The URL of one of Wagtail's admin API page actions (/admin/api/main/pages/<id>/action/)."""
    return lambda w: reverse(
        "wagtailadmin_api:pages:action", kwargs={"pk": page(w), "action_name": action}
    )


TRANSLATED_SUMMARY = "譯者剛寫好的摘要"


def _translator_wrote(world: World) -> None:
    """A translator's new summary, saved in the translation editor: strings only, no revision."""
    StringTranslation.objects.filter(
        locale=world.zh_locale, context__object_id=world.en.translation_key, context__path="summary"
    ).update(data=TRANSLATED_SUMMARY)


def _simplified_everywhere(world: World) -> None:
    """Simplified characters in the zh-hant page's strings and in its latest revision."""
    _simplify(world)
    _draft(world.zh, summary=SIMPLIFIED)


def _unreleased_english(world: World, *, scheduled: bool = False) -> DigestPage:
    """An English digest readers cannot see yet: a draft never published, or one scheduled to
    go live tomorrow. Its pk is kept as values["unreleased_en"]."""
    from datetime import timedelta

    from django.utils import timezone

    page = DigestPageFactory(
        parent=world.en.get_parent(),
        title="Embargoed results",
        slug="embargoed-results",
        short_name="Embargoed",
        reading_minutes=4,
        summary="Not announced yet.",
        locale=world.en.locale,
        live=False,
        go_live_at=timezone.now() + timedelta(days=1) if scheduled else None,
        revision=PUBLISHED if scheduled else DRAFT,  # published when scheduled: not live yet
    )
    world.values["unreleased_en"] = page.pk
    return page


def _unreleased_translation(world: World, *, scheduled: bool = False, translated: bool) -> None:
    """A zh-hant draft of an unreleased English digest, as submitting it for translation made
    before that was refused (or as it stays when the English page is unpublished afterwards);
    with every string translated, or none (the English draft text). Its pk: values["draft_zh"]."""
    page = _unreleased_english(world, scheduled=scheduled)
    source, _created = TranslationSource.get_or_create_from_instance(page)
    translation = Translation.objects.create(
        source=source, target_locale=world.zh_locale, enabled=True
    )
    if translated:
        for segment in StringSegment.objects.filter(source=source):
            StringTranslation.objects.create(
                translation_of_id=segment.string_id,
                locale=world.zh_locale,
                context_id=segment.context_id,
                data=f"譯文 {segment.context.path}",
            )
    translation.save_target(publish=False)
    world.values["draft_zh"] = page.get_translation(world.zh_locale).pk


def _live(pk: int) -> bool:
    return Page.objects.filter(pk=pk, live=True).exists()


@dataclass(frozen=True)
class Case:
    name: str
    url: Callable[[World], str]
    allowed: frozenset[str]
    happened: Callable[[World], bool]
    data: Callable[[World], dict] = lambda w: {}
    method: str = "post"
    prepare: Callable[[World], None] = lambda w: None

    @property
    def admin_api(self) -> bool:
        return self.name.startswith("api-")


def _uncited_paper(world: World) -> None:
    """A paper no digest cites, kept as values["uncited"]."""
    world.values["uncited"] = PaperFactory(title="Uncited", venue="NSDI", year=2025).pk


def _case(name, url, allowed, happened, **kwargs) -> Case:
    return Case(name, url, frozenset(allowed), happened, **kwargs)


CASES = [
    # --- Wagtail's page views ---------------------------------------------------------------
    _case(
        "edit-publish-en",
        lambda w: reverse("wagtailadmin_pages:edit", args=[w.en.pk]),
        {EDITOR, SUPERUSER},
        lambda w: _fresh(w.en).title == "Edited" and _fresh(w.en).live,
        data=lambda w: digest_form(w.en, title="Edited", **{"action-publish": "1"}),
    ),
    _case(
        "edit-draft-en",
        lambda w: reverse("wagtailadmin_pages:edit", args=[w.en.pk]),
        {EDITOR, SUPERUSER},
        lambda w: (
            _fresh(w.en).title != "Drafted"
            and _fresh(w.en).get_latest_revision_as_object().title == "Drafted"
        ),
        data=lambda w: digest_form(w.en, title="Drafted"),
    ),
    _case(
        "localize-editor-publish-zh",
        lambda w: reverse("wagtailadmin_pages:edit", args=[w.zh.pk]),
        {TRANSLATOR, SUPERUSER},
        lambda w: _fresh(w.zh).live_revision_id != w.values["zh_live_revision"],
        data=lambda w: {"action": "publish"},
    ),
    _case(
        "localize-editor-publish-zh-simplified",
        lambda w: reverse("wagtailadmin_pages:edit", args=[w.zh.pk]),
        set(),
        lambda w: SIMPLIFIED in _fresh(w.zh).summary,
        data=lambda w: {"action": "publish"},
        prepare=lambda w: _simplify(w),
    ),
    _case(
        "add-en-digest",
        lambda w: reverse(
            "wagtailadmin_pages:add", args=["digests", "digestpage", w.other_topic_en.pk]
        ),
        {EDITOR, SUPERUSER},
        lambda w: DigestPage.objects.filter(slug="added-digest", live=True).exists(),
        data=lambda w: digest_form(
            w.en, title="Added", slug="added-digest", **{"action-publish": "1"}
        ),
    ),
    _case(
        "add-zh-digest",
        lambda w: reverse("wagtailadmin_pages:add", args=["digests", "digestpage", w.zh_topic]),
        {SUPERUSER},
        lambda w: DigestPage.objects.filter(slug="added-zh-digest").exists(),
        data=lambda w: digest_form(
            w.zh, title="加入", slug="added-zh-digest", **{"action-publish": "1"}
        ),
    ),
    _case(
        "unpublish-en",
        lambda w: reverse("wagtailadmin_pages:unpublish", args=[w.en.pk]),
        {EDITOR, SUPERUSER},
        lambda w: not _fresh(w.en).live,
    ),
    _case(
        "unpublish-zh",
        lambda w: reverse("wagtailadmin_pages:unpublish", args=[w.zh.pk]),
        {TRANSLATOR, SUPERUSER},
        lambda w: not _fresh(w.zh).live,
    ),
    _case(
        "delete-en",
        lambda w: reverse("wagtailadmin_pages:delete", args=[w.en.pk]),
        {EDITOR, SUPERUSER},
        lambda w: _fresh(w.en) is None,
    ),
    _case(
        "delete-zh",
        lambda w: reverse("wagtailadmin_pages:delete", args=[w.zh.pk]),
        {SUPERUSER},
        lambda w: _fresh(w.zh) is None,
    ),
    _case(
        "move-en",
        lambda w: reverse("wagtailadmin_pages:move_confirm", args=[w.en.pk, w.other_topic_en.pk]),
        {EDITOR, SUPERUSER},
        lambda w: _fresh(w.en).get_parent().pk == w.other_topic_en.pk,
    ),
    _case(
        "move-zh",
        lambda w: reverse("wagtailadmin_pages:move_confirm", args=[w.zh.pk, w.zh_other_topic]),
        {SUPERUSER},
        lambda w: _fresh(w.zh).get_parent().pk == w.zh_other_topic,
    ),
    _case(
        "copy-en",
        lambda w: reverse("wagtailadmin_pages:copy", args=[w.en.pk]),
        {EDITOR, SUPERUSER},
        lambda w: DigestPage.objects.filter(slug="copied").exists(),
        data=lambda w: {
            "new_title": "Copied",
            "new_slug": "copied",
            "new_parent_page": w.en.get_parent().pk,
            "publish_copies": "on",
        },
    ),
    _case(
        "copy-zh",
        lambda w: reverse("wagtailadmin_pages:copy", args=[w.zh.pk]),
        {SUPERUSER},
        lambda w: DigestPage.objects.filter(slug="copied-zh").exists(),
        data=lambda w: {
            "new_title": "複製",
            "new_slug": "copied-zh",
            "new_parent_page": w.zh.get_parent().pk,
            "publish_copies": "on",
        },
    ),
    # --- Wagtail's bulk actions ---------------------------------------------------------------
    _case(
        "bulk-publish-en-draft",
        lambda w: _bulk("publish", w.en),
        {EDITOR, SUPERUSER},
        lambda w: _fresh(w.en).title == "Bulk",
        prepare=lambda w: _draft(w.en, title="Bulk"),
    ),
    _case(
        "bulk-publish-zh-simplified-draft",
        lambda w: _bulk("publish", w.zh),
        {TRANSLATOR, SUPERUSER},
        # A revision is not what the translator wrote: their strings go live, not the draft.
        lambda w: (
            _fresh(w.zh).live_revision_id != w.values["zh_live_revision"]
            and SIMPLIFIED not in _fresh(w.zh).summary
        ),
        prepare=lambda w: _draft(w.zh, summary=SIMPLIFIED),
    ),
    _case(
        "bulk-publish-zh-translated",
        lambda w: _bulk("publish", w.zh),
        {TRANSLATOR, SUPERUSER},
        # What the translator wrote goes live, not the latest revision's older text.
        lambda w: _fresh(w.zh).summary == TRANSLATED_SUMMARY,
        prepare=_translator_wrote,
    ),
    _case(
        "bulk-publish-zh-simplified-strings",
        lambda w: _bulk("publish", w.zh),
        set(),
        lambda w: SIMPLIFIED in _fresh(w.zh).summary,
        prepare=_simplify,
    ),
    _case(
        "bulk-publish-zh-of-english-draft",
        lambda w: _bulk("publish", Page.objects.get(pk=w.values["draft_zh"])),
        set(),
        lambda w: _live(w.values["draft_zh"]),
        prepare=lambda w: _unreleased_translation(w, translated=True),
    ),
    _case(
        "bulk-unpublish-zh",
        lambda w: _bulk("unpublish", w.zh),
        {TRANSLATOR, SUPERUSER},
        lambda w: not _fresh(w.zh).live,
    ),
    _case(
        "bulk-delete-en",
        lambda w: _bulk("delete", w.en),
        {EDITOR, SUPERUSER},
        lambda w: _fresh(w.en) is None,
    ),
    _case(
        "bulk-delete-zh",
        lambda w: _bulk("delete", w.zh),
        {SUPERUSER},
        lambda w: _fresh(w.zh) is None,
    ),
    _case(
        "bulk-move-en",
        lambda w: _bulk("move", w.en),
        {EDITOR, SUPERUSER},
        lambda w: _fresh(w.en).get_parent().pk == w.other_topic_en.pk,
        data=lambda w: {"chooser": w.other_topic_en.pk},
    ),
    # --- wagtail-localize -----------------------------------------------------------------
    _case(
        "submit-en-to-zh",
        lambda w: reverse("wagtail_localize:submit_page_translation", args=[w.new_en.pk]),
        {EDITOR, TRANSLATOR, SUPERUSER},
        # A draft in zh-hant, never live.
        lambda w: (zh := _zh_drafts_of(w.new_en)) is not None and not zh.live,
        data=lambda w: {"locales": [w.zh_locale.pk]},
    ),
    _case(
        "submit-en-draft-to-zh",
        lambda w: reverse(
            "wagtail_localize:submit_page_translation", args=[w.values["unreleased_en"]]
        ),
        set(),
        lambda w: _zh_drafts_of(Page.objects.get(pk=w.values["unreleased_en"])) is not None,
        data=lambda w: {"locales": [w.zh_locale.pk]},
        prepare=_unreleased_english,
    ),
    _case(
        "submit-en-scheduled-to-zh",
        lambda w: reverse(
            "wagtail_localize:submit_page_translation", args=[w.values["unreleased_en"]]
        ),
        set(),
        lambda w: _zh_drafts_of(Page.objects.get(pk=w.values["unreleased_en"])) is not None,
        data=lambda w: {"locales": [w.zh_locale.pk]},
        prepare=lambda w: _unreleased_english(w, scheduled=True),
    ),
    _case(
        "submit-zh-to-en",
        lambda w: reverse("wagtail_localize:submit_page_translation", args=[w.orphan_zh.pk]),
        {SUPERUSER},
        lambda w: w.orphan_zh.get_translations().filter(locale__language_code="en").exists(),
        data=lambda w: {"locales": [Locale.objects.get(language_code="en").pk]},
    ),
    _case(
        "update-and-publish",
        lambda w: reverse("wagtail_localize:update_translations", args=[w.source_id()]),
        {TRANSLATOR, SUPERUSER},
        lambda w: _fresh(w.zh).reading_minutes == 41,
        data=lambda w: {"publish_translations": "on"},
        prepare=_changed_english,
    ),
    _case(
        "update-and-publish-simplified",
        lambda w: reverse("wagtail_localize:update_translations", args=[w.source_id()]),
        set(),
        lambda w: _fresh(w.zh).reading_minutes == 41,
        data=lambda w: {"publish_translations": "on"},
        prepare=lambda w: (_changed_english(w), _simplify(w)),
    ),
    _case(
        "edit-string-translation",
        lambda w: reverse(
            "wagtail_localize:edit_string_translation",
            args=[w.translation().pk, w.values["summary_segment"]],
        ),
        {TRANSLATOR, SUPERUSER},
        lambda w: StringTranslation.objects.filter(data="新的摘要").exists(),
        data=lambda w: {"value": "新的摘要"},
        method="put",
    ),
    _case(
        "stop-translation",
        lambda w: reverse("wagtail_localize:stop_translation", args=[w.translation().pk]),
        {SUPERUSER},
        lambda w: not w.translation().enabled,
    ),
    _case(
        "convert-zh-to-alias",
        lambda w: reverse("wagtail_localize:convert_to_alias", args=[w.zh.pk]),
        {SUPERUSER},
        lambda w: _fresh(w.zh).alias_of_id is not None,
    ),
    _case(
        "machine-translate",
        lambda w: reverse("wagtail_localize:machine_translate", args=[w.translation().pk]),
        {TRANSLATOR, SUPERUSER},
        lambda w: StringTranslation.objects.filter(
            tool_name=get_machine_translator().display_name,
            context__object_id=w.en.translation_key,
        ).exists(),
        prepare=lambda w: _untranslated_change(w),
    ),
    _case(
        "upload-po-file",
        lambda w: reverse("wagtail_localize:upload_pofile", args=[w.translation().pk]),
        {TRANSLATOR, SUPERUSER},
        # Strings only: the live zh-hant page keeps its text until a translator publishes.
        lambda w: (
            StringTranslation.objects.filter(data="PO 檔的摘要").exists()
            and _fresh(w.zh).live_revision_id == w.values["zh_live_revision"]
        ),
        data=lambda w: _po_file(w, summary="PO 檔的摘要"),
    ),
    # --- Wagtail's admin API: /admin/api/main/pages/<id>/action/<name>/ ----------------------
    _case(
        "api-publish-en-draft",
        _api("publish", lambda w: w.en.pk),
        {EDITOR, SUPERUSER},
        lambda w: _fresh(w.en).title == "Through the API",
        prepare=lambda w: _draft(w.en, title="Through the API"),
    ),
    _case(
        "api-publish-zh-translated",
        _api("publish", lambda w: w.zh.pk),
        {TRANSLATOR, SUPERUSER},
        lambda w: _fresh(w.zh).summary == TRANSLATED_SUMMARY,
        prepare=_translator_wrote,
    ),
    _case(
        "api-publish-zh-simplified",
        _api("publish", lambda w: w.zh.pk),
        set(),
        lambda w: SIMPLIFIED in _fresh(w.zh).summary,
        prepare=_simplified_everywhere,
    ),
    _case(
        "api-publish-zh-of-english-draft",
        _api("publish", lambda w: w.values["draft_zh"]),
        set(),
        lambda w: _live(w.values["draft_zh"]),
        prepare=lambda w: _unreleased_translation(w, translated=False),
    ),
    _case(
        "api-publish-zh-translated-of-english-draft",
        _api("publish", lambda w: w.values["draft_zh"]),
        set(),
        lambda w: _live(w.values["draft_zh"]),
        prepare=lambda w: _unreleased_translation(w, translated=True),
    ),
    _case(
        "api-publish-zh-of-scheduled-english",
        _api("publish", lambda w: w.values["draft_zh"]),
        set(),
        lambda w: _live(w.values["draft_zh"]),
        prepare=lambda w: _unreleased_translation(w, scheduled=True, translated=True),
    ),
    _case(
        "api-publish-scheduled-english",
        _api("publish", lambda w: w.values["unreleased_en"]),
        set(),
        lambda w: _live(w.values["unreleased_en"]),
        prepare=lambda w: _unreleased_english(w, scheduled=True),
    ),
    _case(
        "api-unpublish-en",
        _api("unpublish", lambda w: w.en.pk),
        {EDITOR, SUPERUSER},
        # Its translation goes with it, as in the admin's views and bulk actions.
        lambda w: not _fresh(w.en).live and not _fresh(w.zh).live,
    ),
    _case(
        "api-unpublish-zh",
        _api("unpublish", lambda w: w.zh.pk),
        {TRANSLATOR, SUPERUSER},
        lambda w: not _fresh(w.zh).live and _fresh(w.en).live,
    ),
    _case(
        "api-delete-en",
        _api("delete", lambda w: w.en.pk),
        {EDITOR, SUPERUSER},
        lambda w: _fresh(w.en) is None and _fresh(w.zh) is None,
    ),
    _case(
        "api-delete-zh",
        _api("delete", lambda w: w.zh.pk),
        {SUPERUSER},
        lambda w: _fresh(w.zh) is None,
    ),
    _case(
        "api-move-en",
        _api("move", lambda w: w.en.pk),
        {EDITOR, SUPERUSER},
        lambda w: _fresh(w.en).get_parent().pk == w.other_topic_en.pk,
        data=lambda w: {"destination_page_id": w.other_topic_en.pk, "position": "last-child"},
    ),
    _case(
        "api-move-zh",
        _api("move", lambda w: w.zh.pk),
        {SUPERUSER},
        lambda w: _fresh(w.zh).get_parent().pk == w.zh_other_topic,
        data=lambda w: {"destination_page_id": w.zh_other_topic, "position": "last-child"},
    ),
    _case(
        "api-move-en-into-zh",
        _api("move", lambda w: w.en.pk),
        set(),  # Wagtail moves no page into another language's tree, for anyone
        lambda w: _fresh(w.en).get_parent().pk == w.zh_other_topic,
        data=lambda w: {"destination_page_id": w.zh_other_topic, "position": "last-child"},
    ),
    _case(
        "api-copy-en",
        _api("copy", lambda w: w.en.pk),
        {EDITOR, SUPERUSER},
        lambda w: DigestPage.objects.filter(slug="api-copied").exists(),
        data=lambda w: {"slug": "api-copied", "keep_live": True},
    ),
    _case(
        "api-copy-zh",
        _api("copy", lambda w: w.zh.pk),
        {SUPERUSER},
        lambda w: DigestPage.objects.filter(slug="api-copied-zh").exists(),
        data=lambda w: {"slug": "api-copied-zh", "keep_live": True},
    ),
    _case(
        "api-copy-en-into-zh",
        _api("copy", lambda w: w.en.pk),
        {SUPERUSER},
        lambda w: DigestPage.objects.filter(slug="api-copied-into-zh").exists(),
        data=lambda w: {
            "slug": "api-copied-into-zh",
            "destination_page_id": w.zh_other_topic,
            "keep_live": True,
        },
    ),
    _case(
        "api-create-alias-en-into-zh",
        _api("create_alias", lambda w: w.new_en.pk),
        {SUPERUSER},
        lambda w: Page.objects.filter(alias_of_id=w.new_en.pk).exists(),
        data=lambda w: {"destination_page_id": w.zh_topic, "update_slug": "api-alias"},
    ),
    _case(
        "api-create-alias-en",
        _api("create_alias", lambda w: w.new_en.pk),
        {EDITOR, SUPERUSER},
        lambda w: Page.objects.filter(alias_of_id=w.new_en.pk).exists(),
        data=lambda w: {"destination_page_id": w.other_topic_en.pk},
    ),
    _case(
        "api-copy-for-translation",
        _api("copy_for_translation", lambda w: w.new_en.pk),
        set(),
        lambda w: _zh_drafts_of(w.new_en) is not None,
        data=lambda w: {"locale": "zh-hant"},
    ),
    _case(
        "api-copy-for-translation-alias",
        _api("copy_for_translation", lambda w: w.new_en.pk),
        set(),
        lambda w: _zh_drafts_of(w.new_en) is not None,
        data=lambda w: {"locale": "zh-hant", "alias": True},
    ),
    _case(
        "api-revert-zh",
        _api("revert_to_page_revision", lambda w: w.zh.pk),
        {TRANSLATOR, SUPERUSER},
        # A new draft with the old revision's content; nothing goes live.
        lambda w: (
            Revision.page_revisions.filter(object_id=str(w.zh.pk)).count()
            == w.values["zh_revisions"] + 1
            and _fresh(w.zh).live_revision_id == w.values["zh_live_revision"]
        ),
        data=lambda w: {"revision_id": w.values["zh_live_revision"]},
    ),
    _case(
        "api-revert-en",
        _api("revert_to_page_revision", lambda w: w.en.pk),
        {EDITOR, SUPERUSER},
        lambda w: (
            Revision.page_revisions.filter(object_id=str(w.en.pk)).count()
            == w.values["en_revisions"] + 1
        ),
        data=lambda w: {"revision_id": w.en.live_revision_id},
    ),
    # --- snippets -------------------------------------------------------------------------
    _case(
        "paper-add",
        lambda w: reverse("wagtailsnippets_papers_paper:add"),
        {EDITOR, SUPERUSER},
        lambda w: Paper.objects.filter(title="Matrix paper").exists(),
        data=lambda w: paper_form(title="Matrix paper"),
    ),
    _case(
        "paper-edit",
        lambda w: reverse("wagtailsnippets_papers_paper:edit", args=[w.values["paper"]]),
        {EDITOR, SUPERUSER},
        lambda w: Paper.objects.get(pk=w.values["paper"]).title == "Edited paper",
        data=lambda w: paper_form(Paper.objects.get(pk=w.values["paper"]), title="Edited paper"),
    ),
    _case(
        # A paper a digest cites is protected (on_delete=PROTECT), for superusers too.
        "paper-delete-cited",
        lambda w: reverse("wagtailsnippets_papers_paper:delete", args=[w.values["paper"]]),
        set(),
        lambda w: not Paper.objects.filter(pk=w.values["paper"]).exists(),
    ),
    _case(
        "paper-delete-uncited",
        lambda w: reverse("wagtailsnippets_papers_paper:delete", args=[w.values["uncited"]]),
        {SUPERUSER},
        lambda w: not Paper.objects.filter(pk=w.values["uncited"]).exists(),
        prepare=_uncited_paper,
    ),
    _case(
        "paper-translate",
        lambda w: reverse(
            "wagtail_localize:submit_snippet_translation",
            args=["papers", "paper", w.values["paper"]],
        ),
        set(),
        lambda w: Paper.objects.count() != w.values["papers"],
        data=lambda w: {"locales": [w.zh_locale.pk]},
    ),
]


def _po_file(world: World, **strings: str) -> dict:
    """wagtail-localize's PO export of the zh-hant translation, with `strings` (by field path)
    translated, as its upload form posts it."""
    po = world.translation().export_po()
    for entry in po:
        entry.msgstr = strings.get(entry.msgctxt, entry.msgstr)
    return {"file": SimpleUploadedFile("translation.po", str(po).encode())}


def _untranslated_change(world: World) -> None:
    """A changed English segment left without a translation, for the machine translator to fill."""
    _changed_english_and_sync(world)
    StringTranslation.objects.filter(tool_name=previous_translation_tool_name()).delete()


def _public_api() -> list:
    """What the public API answers for every page: each page's title, and each digest's
    summary, in each language (a refused action must change none of it). Listings, not one
    detail per page: both go through the one public read path, and 130 details per snapshot
    made this matrix the slowest part of the suite."""
    from django.test import Client

    reader = Client()  # anonymous, whoever the test logged in
    pages = []
    for locale in ("en", "zh-hant"):
        listing = reader.get("/api/v2/pages/", {"locale": locale, "limit": 100}).json()
        summaries = {
            item["id"]: item["summary"]
            for item in reader.get(
                "/api/v2/pages/",
                {"locale": locale, "limit": 100, "type": "digests.DigestPage", "fields": "summary"},
            ).json()["items"]
        }
        pages += [
            (item["id"], item["title"], summaries.get(item["id"])) for item in listing["items"]
        ]
    return sorted(pages, key=lambda page: page[0])


def _snapshot():
    """What readers could see and what a translator works from."""
    return (
        _public_api(),
        list(
            Page.objects.order_by("pk").values_list(
                "pk", "live", "live_revision_id", "title", "path", "alias_of_id", "locale_id"
            )
        ),
        list(Paper.objects.order_by("pk").values_list("pk", "title")),
        list(Translation.objects.order_by("pk").values_list("pk", "enabled")),
        sorted(StringTranslation.objects.values_list("pk", "data")),
        Revision.objects.count(),
    )


@pytest.fixture
def world(digest_en, digest_zh, zh_locale, admin_user):
    topic = digest_en.get_parent()
    other_topic = TopicPage.objects.filter(locale__language_code="en").exclude(pk=topic.pk).first()
    new_en = DigestPageFactory(
        parent=topic,
        title="Untranslated digest",
        slug="untranslated-digest",
        short_name="Untranslated",
        reading_minutes=3,
        summary="Not translated yet.",
        locale=digest_en.locale,
        revision=PUBLISHED,
    )
    orphan_en = (
        DigestPage.objects.filter(locale__language_code="en").exclude(pk=digest_en.pk).last()
    )
    orphan_zh = orphan_en.get_translation(zh_locale)
    orphan_en.delete()
    world = World(
        en=digest_en,
        zh=digest_zh,
        other_topic_en=other_topic,
        new_en=new_en,
        orphan_zh=orphan_zh,
        zh_locale=zh_locale,
        zh_topic=topic.get_translation(zh_locale).pk,
        zh_other_topic=other_topic.get_translation(zh_locale).pk,
    )
    world.values = {
        "zh_live_revision": digest_zh.live_revision_id,
        "zh_revisions": Revision.page_revisions.filter(object_id=str(digest_zh.pk)).count(),
        "en_revisions": Revision.page_revisions.filter(object_id=str(digest_en.pk)).count(),
        "paper": Paper.objects.order_by("pk").first().pk,
        "papers": Paper.objects.count(),
        "summary_segment": StringSegment.objects.get(
            source_id=world.source_id(), context__path="summary"
        ).pk,
    }
    return world


@pytest.fixture
def as_role(client, editor, translator, admin_user):
    def login(role: str):
        if role != ANONYMOUS:
            client.force_login(
                {EDITOR: editor, TRANSLATOR: translator, SUPERUSER: admin_user}[role]
            )
        return client

    return login


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.name)
def test_post(case, role, world, as_role, django_capture_on_commit_callbacks, uncached_api):
    client = as_role(role)
    case.prepare(world)
    before = _snapshot()
    request = getattr(client, case.method)
    with django_capture_on_commit_callbacks(execute=True):
        if case.method == "put":
            from urllib.parse import urlencode

            response = request(
                case.url(world),
                urlencode(case.data(world)),
                content_type="application/x-www-form-urlencoded",
            )
        elif case.admin_api:
            # As the admin's JavaScript (or an attacker's page) calls it: JSON, CSRF header.
            response = request(
                case.url(world),
                case.data(world),
                content_type="application/json",
                HTTP_X_CSRFTOKEN=client.cookies.get("csrftoken", ""),
            )
        else:
            response = request(case.url(world), case.data(world))
    assert response.status_code < 500, response.content[:500]
    if role in case.allowed:
        assert case.happened(world), f"{role} could not {case.name} ({response.status_code})"
    else:
        assert _snapshot() == before, f"{role} changed something with {case.name}"
        assert not case.happened(world)


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(
    "case", [case for case in CASES if case.method == "post"], ids=lambda case: case.name
)
def test_get_changes_nothing(case, role, world, as_role, uncached_api):
    client = as_role(role)
    case.prepare(world)
    before = _snapshot()
    response = client.get(case.url(world))
    assert response.status_code < 500
    if role == ANONYMOUS:
        assert response.status_code == 302 and "/login/" in response.url
    assert _snapshot() == before


# --- Publishing without a request: workflow approval and scheduled publishing ---------------


def test_workflow_approval_rechecks_the_guard(world, admin_user):
    page = _fresh(world.zh)
    page.summary = SIMPLIFIED
    revision = page.save_revision(user=admin_user)
    workflow = Workflow.objects.filter(active=True).first()
    state = workflow.start(page, admin_user)
    task_state = state.current_task_state
    with pytest.raises(policy.PublishRefused):
        task_state.task.specific.on_action(task_state, admin_user, "approve")
    assert _fresh(world.zh).live_revision_id != revision.pk
    assert SIMPLIFIED not in _fresh(world.zh).summary
    task_state.refresh_from_db()
    assert task_state.status == task_state.STATUS_IN_PROGRESS  # the approval was rolled back


def test_scheduled_publishing_rechecks_the_guard(world, admin_user):
    from datetime import timedelta

    from django.utils import timezone

    bad = _fresh(world.zh)
    bad.summary = SIMPLIFIED
    bad_revision = bad.save_revision(user=admin_user, approved_go_live_at=timezone.now())
    good = _fresh(world.new_en)
    good.summary = "Published on schedule."
    good_revision = good.save_revision(user=admin_user, approved_go_live_at=timezone.now())
    Revision.objects.filter(pk__in=[bad_revision.pk, good_revision.pk]).update(
        approved_go_live_at=timezone.now() - timedelta(minutes=1)
    )

    call_command("publish_scheduled")

    assert SIMPLIFIED not in _fresh(world.zh).summary
    assert Revision.objects.get(pk=bad_revision.pk).approved_go_live_at is None  # unscheduled
    assert _fresh(world.new_en).summary == "Published on schedule."


def test_a_sync_keeps_the_live_translation_until_its_translator_publishes(world, translator):
    live_summary = _fresh(world.zh).summary
    _changed_english_and_sync(world)
    zh = _fresh(world.zh)
    assert zh.live and zh.summary == live_summary and zh.reading_minutes != 41
    publish_translation(world.translation(), user=translator)
    assert _fresh(world.zh).reading_minutes == 41


def test_the_submit_form_offers_only_english_to_zh_hant(world, as_role):
    client = as_role(TRANSLATOR)
    url = reverse("wagtail_localize:submit_page_translation", args=[world.new_en.pk])
    form = client.get(url).context["form"]
    assert [locale.language_code for locale in form.fields["locales"].queryset] == ["zh-hant"]

    orphan = reverse("wagtail_localize:submit_page_translation", args=[world.orphan_zh.pk])
    response = client.get(orphan)
    assert response.status_code == 302 and response.url == reverse("wagtailadmin_home")


# --- What an API consumer sees meanwhile -----------------------------------------------------


def test_the_api_shows_no_zh_hant_page_until_its_first_publish(world, as_role, translator):
    client = as_role(TRANSLATOR)
    client.post(
        reverse("wagtail_localize:submit_page_translation", args=[world.new_en.pk]),
        {"locales": [world.zh_locale.pk]},
    )
    draft = _zh_drafts_of(world.new_en)
    assert draft is not None and not draft.live
    client.logout()
    assert client.get(f"/api/v2/pages/{draft.pk}/").status_code == 404
    listing = client.get("/api/v2/pages/", {"translation_of": world.new_en.pk}).json()
    assert listing["meta"]["total_count"] == 0

    translation = Translation.objects.get(
        source__object_id=world.new_en.translation_key, target_locale=world.zh_locale
    )
    # Nothing translated yet: publishing would put the English text live, so it is refused.
    with pytest.raises(policy.PublishRefused, match="not translated yet"):
        publish_translation(translation, user=translator)
    assert client.get(f"/api/v2/pages/{draft.pk}/").status_code == 404

    prefill_page_translation(
        page=world.new_en,
        locale=world.zh_locale,
        strings_by_field={
            segment.context.path: f"譯文 {segment.context.path}"
            for segment in StringSegment.objects.filter(source=translation.source)
        },
    )
    assert client.get(f"/api/v2/pages/{draft.pk}/").json()["title"] == "譯文 title"


def test_the_api_keeps_the_old_translation_live_and_says_it_is_out_of_date(world, client):
    live_summary = _fresh(world.zh).summary
    world.en.summary = "A changed English summary."
    _changed_english(world)
    body = client.get(f"/api/v2/pages/{world.zh.pk}/").json()
    assert body["summary"] == live_summary
    assert body["translation_status"]["state"] == "out_of_date"

    _changed_english_and_sync(world)
    body = client.get(f"/api/v2/pages/{world.zh.pk}/").json()
    assert body["summary"] == live_summary  # the sync made a draft only
    assert body["translation_status"]["out_of_date"] is True
