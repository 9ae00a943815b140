"""Translations follow their source page when an editor moves, unpublishes or deletes it, or
changes its privacy.

Neither Wagtail nor wagtail-localize moves a page's translations with it, and translators may
not move pages, so a zh-hant digest stayed under its old topic's translation: that topic listed
a digest its English topic no longer had. When an English page moves to another parent, each of
its translations (and untranslated placeholders) that sat under the old parent's translation
moves under the new parent's translation in its language. Where the new parent has no
translation in that language yet, the translation stays where it is.

The move is the system's, not the editor's (their role writes English only), so it goes
through `Page.move` without a user; Wagtail's move view has a hook for cascading a move
(`construct_translated_pages_to_cascade_actions`), but it moves the translations as the
editor, whom the zh-hant tree refuses.

An English page deleted or unpublished in the admin takes its translations with it: left
behind, a zh-hant page stayed live with no source to translate from, and only an admin could
remove it (editors write English only, translators delete nothing). Wagtail's delete and
unpublish views act on what their `construct_translated_pages_to_cascade_actions` hook names
and say so on their confirmation pages; its bulk actions and its admin API's unpublish and
delete actions ask no such hook, so the same is done after them (`after_bulk_action`,
cms.translation.views.admin_api). Acting on a translation never touches its source.

Privacy set on an English page (login, password or groups) is set on its translations at once.
wagtail-localize copies it only when a translation is created, published or synced, so a
topic an editor made private stayed public in Chinese until then. The restriction's groups
are set after it is saved (Wagtail's privacy view saves the form's many-to-many last), so the
copy is redone when they change. Translators may not set privacy (policy.may_set_privacy);
a translation's own restriction stays its own until the source's privacy changes.
"""

from __future__ import annotations

from django.db.models.signals import m2m_changed, post_delete, post_save
from wagtail.actions.delete_page import DeletePageAction
from wagtail.actions.unpublish_page import UnpublishPageAction
from wagtail.models import Page, PageViewRestriction
from wagtail.signals import post_page_move

from cms.translation.languages import SOURCE_LANGUAGE


def follow_source(
    sender, instance: Page, parent_page_before: Page, parent_page_after: Page, **kwargs
) -> None:
    """Move `instance`'s translations after it (see the module's docstring)."""
    if parent_page_before.pk == parent_page_after.pk:
        return  # reordered among its siblings
    if instance.locale.language_code != SOURCE_LANGUAGE:
        return
    for translation in Page.objects.translation_of(instance).select_related("locale"):
        old_parent = translation.get_parent()
        if old_parent is None or old_parent.translation_key != parent_page_before.translation_key:
            continue  # placed elsewhere by hand: left there
        new_parent = parent_page_after.get_translation_or_none(translation.locale)
        if new_parent is not None:
            translation.move(new_parent, pos="last-child")


def copy_privacy(source: Page) -> None:
    """Give each translation of `source` the source's restriction, or none when it has none,
    as wagtail-localize's `TranslationSource.sync_view_restrictions` does on a sync."""
    restriction = source.view_restrictions.first()
    for translation in Page.objects.translation_of(source):
        if restriction is None:
            translation.view_restrictions.all().delete()
            continue
        copy = translation.view_restrictions.first() or PageViewRestriction(page=translation)
        copy.restriction_type = restriction.restriction_type
        copy.password = restriction.password
        copy.save()
        copy.groups.set(restriction.groups.all())


def follow_source_privacy(sender, instance: PageViewRestriction, **kwargs) -> None:
    """Copy an English page's privacy to its translations (see the module's docstring)."""
    if kwargs.get("raw") or kwargs.get("action", "post_").startswith("pre_"):
        return
    source = Page.objects.filter(pk=instance.page_id).select_related("locale").first()
    if source is not None and source.locale.language_code == SOURCE_LANGUAGE:
        copy_privacy(source)  # else a translation's own, or the page's own deletion


CASCADED_ACTIONS = frozenset({"delete", "unpublish"})


def english_translations(pages: list[Page]) -> dict[Page, list[Page]]:
    """The translations of each English page in `pages`."""
    return {
        page: list(Page.objects.translation_of(page))
        for page in pages
        if page.locale.language_code == SOURCE_LANGUAGE
    }


def translations_cascaded(pages: list[Page], action: str) -> dict[Page, list[Page]]:
    """For Wagtail's delete and unpublish views: what goes with each English page."""
    return english_translations(pages) if action in CASCADED_ACTIONS else {}


def cascade_bulk_action(pages: list[Page], action: str, user) -> None:
    """After a bulk or admin API delete or unpublish (which ask no cascade hook): do the same
    to the translations of its English pages, as the single-page views do."""
    if action not in CASCADED_ACTIONS:
        return
    for translations in english_translations(pages).values():
        for translation in translations:
            if not cascade_reaches(translation, action):
                continue
            if action == "delete" and Page.objects.filter(pk=translation.pk).exists():
                DeletePageAction(translation, user=user).execute(skip_permission_checks=True)
            elif action == "unpublish":
                UnpublishPageAction(translation, user=user).execute(skip_permission_checks=True)


def cascade_reaches(translation: Page, action: str) -> bool:
    """Whether a bulk `action` on its English page acts on `translation`: a delete always, an
    unpublish only while the translation is live (the bulk screens list exactly these)."""
    return action == "delete" or translation.live


def connect() -> None:
    post_page_move.connect(follow_source, dispatch_uid="translations-follow-source")
    for signal in (post_save, post_delete):
        signal.connect(follow_source_privacy, sender=PageViewRestriction)
    m2m_changed.connect(follow_source_privacy, sender=PageViewRestriction.groups.through)
