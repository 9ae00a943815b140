"""The translator's queue: English pages whose zh-hant version is missing, behind or unreviewed.

Read from the English side, so a page that was never translated is listed too. One query for
the whole queue: the zh-hant page and the wagtail-localize source are correlated subqueries.

`open_translation()`, the queue's one action, never publishes: only a translator does, from
wagtail-localize's translation editor.
"""

from dataclasses import dataclass

from django.db import transaction
from django.db.models import Case, Exists, F, OuterRef, Q, QuerySet, Subquery, Value, When
from django.utils.translation import gettext_lazy as _
from wagtail.models import Locale, Page
from wagtail_localize.models import StringTranslation, Translation, TranslationSource

from cms.translation.languages import (
    LANGUAGE_ROOT_DEPTH,
    SOURCE_LANGUAGE,
    TARGET_LANGUAGE,
    MissingTreeRoot,
    language_root,
    translatable_pages,
)
from cms.translation.policy import rules as policy
from cms.translation.status.statuses import segment_counts
from cms.translation.workflow.sync import sync_translation_sources

# Queue states, in the order a translator meets them.
NOT_TRANSLATED = "not_translated"
OUT_OF_DATE = "out_of_date"
NOT_PUBLISHED = "not_published"
TO_REVIEW = "to_review"
CHANGES_NOT_PUBLISHED = "changes_not_published"
UP_TO_DATE = "up_to_date"

QUEUE_LABELS = {
    NOT_TRANSLATED: _("Not translated"),
    OUT_OF_DATE: _("Out of date"),
    NOT_PUBLISHED: _("Translation not yet published"),
    TO_REVIEW: _("Machine or previous translations to review"),
    CHANGES_NOT_PUBLISHED: _("Changes not yet published"),
}


def may_work_the_queue(user, language: str = TARGET_LANGUAGE) -> bool:
    """Whether `user` may start and open translations from the queue.

    The role check of cms.translation.policy.rules (translations flow from English into `language`),
    and Wagtail's page permission to edit pages in `language`'s tree, where the translation
    editor opens: translators hold it on the tree root (cms.translation.policy.roles), editors do
    not.
    """
    if not user.is_authenticated or not user.is_active:
        return False
    source_locale = Locale.objects.filter(language_code=SOURCE_LANGUAGE).first()
    target_locale = Locale.objects.filter(language_code=language).first()
    if source_locale is None or target_locale is None:
        return False
    if not policy.may_translate(user, source_locale, target_locale):
        return False
    try:
        root = language_root(language)
    except MissingTreeRoot:
        return False
    return root.permissions_for_user(user).can_edit()


def translation_queue(
    *, source_language: str = SOURCE_LANGUAGE, language: str = TARGET_LANGUAGE
) -> QuerySet[Page]:
    """Live English topics and digests that need a translator, newest published change first.

    Each page carries `queue_state` (one of the states above), `translation_id` and
    `translation_title` (its page in `language`, if any). A page is out of date when it was
    published after its translation was last synced (TranslationStatus.out_of_date's rule), or
    after the live translation was last published: syncing alone changes nothing a reader sees,
    so the page stays in the queue until a translator publishes the update. A live, current
    translation stays too while it has machine segments (cms.translation.status.statuses's
    definition: machine or a sync's previous translations nobody reviewed), or strings changed since
    its last publish (reviewed in the editor, not yet published).
    """
    target = Locale.objects.filter(language_code=language).values("pk")[:1]
    translated = Page.objects.filter(translation_key=OuterRef("translation_key"), locale_id=target)
    source = TranslationSource.objects.filter(
        object_id=OuterRef("translation_key"),
        locale_id=OuterRef("locale_id"),
        translations__target_locale_id=target,
        translations__enabled=True,
    )
    to_review = (
        Translation.objects.filter(
            enabled=True,
            source__object_id=OuterRef("translation_key"),
            source__locale_id=OuterRef("locale_id"),
            target_locale_id=target,
        )
        .annotate(machine_segments=segment_counts(Q())["machine_segments"])
        .filter(machine_segments__gt=0)
    )
    # Strings of a translated page (its context) saved after the page was last published.
    changed_since_publish = StringTranslation.objects.filter(
        context__object_id=OuterRef("translation_key"),
        locale_id=OuterRef("locale_id"),
        updated_at__gt=OuterRef("last_published_at"),
    )
    # What keeps a page off the queue, as EXISTS tests the database can answer from the
    # (translation_key, locale) indexes before it computes any row's state: the states below
    # are then worked out only for the pages listed.
    current_translation = translated.filter(
        ~Exists(changed_since_publish),
        live=True,
        has_unpublished_changes=False,
        last_published_at__gte=OuterRef("last_published_at"),
    )
    stale_source = source.filter(last_updated_at__lt=OuterRef("last_published_at"))
    return (
        translatable_pages(source_language)
        .filter(live=True)
        .filter(~Exists(current_translation) | Exists(stale_source) | Exists(to_review))
        .annotate(
            translation_id=Subquery(translated.values("pk")[:1]),
            translation_title=Subquery(translated.values("title")[:1]),
            translation_live=Subquery(translated.values("live")[:1]),
            translation_published_at=Subquery(translated.values("last_published_at")[:1]),
            synced_at=Subquery(source.values("last_updated_at")[:1]),
            has_machine_segments=Exists(to_review),
        )
        .annotate(
            queue_state=Case(
                When(translation_id__isnull=True, then=Value(NOT_TRANSLATED)),
                When(
                    Q(synced_at__isnull=False, last_published_at__gt=F("synced_at"))
                    | Q(translation_live=True, last_published_at__gt=F("translation_published_at")),
                    then=Value(OUT_OF_DATE),
                ),
                When(translation_live=False, then=Value(NOT_PUBLISHED)),
                When(has_machine_segments=True, then=Value(TO_REVIEW)),
                default=Value(CHANGES_NOT_PUBLISHED),
            )
        )
        .order_by(F("last_published_at").desc(nulls_last=True), "-pk")
    )


def queue_state(page: Page, *, language: str = TARGET_LANGUAGE) -> str:
    """Where one English page stands in the queue (UP_TO_DATE when it is not in it)."""
    row = translation_queue(language=language).filter(pk=page.pk).values("queue_state").first()
    return row["queue_state"] if row else UP_TO_DATE


class CannotTranslate(Exception):
    """The page is not an English topic or digest, or its language has no tree yet."""


@dataclass(frozen=True)
class OpenedTranslation:
    page: Page
    created: bool
    synced: bool


def _draft_translation(source_page: Page, locale: Locale, user) -> Page:
    """The page's translation into `locale`, created as a draft (parents first) if missing."""
    existing = source_page.get_translation_or_none(locale)
    if existing is not None:
        return existing
    parent = source_page.get_parent()
    if parent is not None and not parent.is_root():
        _draft_translation(parent.specific, locale, user)
    # From the page's live content (its row); a source kept from an earlier translation is
    # brought up to date with it.
    source, _created = TranslationSource.update_or_create_from_instance(source_page.specific)
    translation, _created = Translation.objects.update_or_create(
        source=source, target_locale=locale, defaults={"enabled": True}
    )
    # publish=False: a draft. Untranslated segments fall back to the English text, which is why
    # the page must never be live before a translator publishes it.
    translation.save_target(user=user, publish=False)
    return source_page.get_translation(locale)


@transaction.atomic
def open_translation(*, page: Page, user, language: str = TARGET_LANGUAGE) -> OpenedTranslation:
    """Make `page`'s translation ready for the translation editor, without publishing anything.

    A missing translation is created as a draft (and any missing parent as a draft too); an
    out-of-date one is synced, so the editor shows the changed segments while the live
    translation keeps its old text. Anything else is left as it is.
    """
    page = page.specific
    if page.locale.language_code != SOURCE_LANGUAGE or page.depth <= LANGUAGE_ROOT_DEPTH:
        raise CannotTranslate(_("Only English topics and digests are translated here."))
    if not page.live:
        # Translations are made from what readers see; a draft may still change or be dropped.
        raise CannotTranslate(_("“%(title)s” is not published yet.") % {"title": page.title})
    locale = Locale.objects.filter(language_code=language).first()
    if locale is None:
        raise CannotTranslate(_("There is no %(language)s locale.") % {"language": language})
    translation = page.get_translation_or_none(locale)
    if translation is None:
        return OpenedTranslation(_draft_translation(page, locale, user), created=True, synced=False)
    source = TranslationSource.objects.filter(
        object_id=page.translation_key, locale=page.locale
    ).first()
    synced = bool(
        source is not None
        and page.last_published_at
        and page.last_published_at > source.last_updated_at
    )
    if synced:
        # Re-extracts the English segments only: the translated page, live or draft, is not
        # saved, so readers keep the old translation until a translator publishes.
        sync_translation_sources(source_ids=[source.pk], user_id=user.pk)
    return OpenedTranslation(translation, created=False, synced=synced)
