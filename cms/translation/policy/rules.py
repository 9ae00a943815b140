"""Who may do what with pages in each language: the one place every admin path asks.

Wagtail's page permissions (GroupPagePermission on each language's root, set up by
`roles.ensure_roles`) already keep editors to the English tree and translators to the zh-hant one
in Wagtail's own views. What they cannot express, and what wagtail-localize's views do not check
(they ask only for `submit_translation`), is decided here:

- a role writes one language: its members may publish, delete, move or copy pages only in it;
- translators delete nothing (Wagtail lets anyone with change + publish delete a page), and
  no role deletes a language's site root (editors may delete pages with children);
- translations flow from English into zh-hant: submitting the other way is for administrators;
- converting a translation back into an alias puts the English text live on the zh-hant page,
  so only administrators may;
- stopping a translation detaches the page from its English source, after which its
  synchronized fields (images, links, numbers) may be edited: a decision about the site's
  structure, so only those who may delete the page may (not translators, who translate);
  so is starting a stopped translation again;
- the same holds for overriding one synchronized value of a translation (wagtail-localize's
  overridable segments: a figure's image, a link's address): translators translate text;
- nothing with Simplified-only characters goes live on a zh-hant page, whoever publishes it
  (the zh-Hant guard), including scheduled publishing and workflow approval, which have no
  request to check (see `cms.translation.policy.pages`);
- nothing untranslated goes live either: a translation with strings not yet translated is not
  published (its page would show them in English);
- nor a translation whose English page is not live (a draft submitted for translation); and
  only a live page may be submitted for translation at all: submitting copies the page's text,
  and a page never published (a draft, or one scheduled for later) holds what its readers may
  not see yet;
- a translated page is published from what its translator wrote (its strings), on every path,
  not from its latest revision, which the translation editor does not write
  (`cms.translation.workflow.publishing`);
- texts filled in automatically and not reviewed (machine, memory, a sync's previous
  translation: cms.translation.status.review) go live only once the publisher confirms it
  (`unreviewed_question`): asked before publishing in the page editor, refused on the paths
  that cannot ask (bulk publish, the admin API).

Users in no role (superusers, moderators) are limited only by Wagtail's own permissions.
"""

from django.core.exceptions import PermissionDenied
from django.db.models import Exists, Model, OuterRef
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext
from wagtail.models import Locale, Page
from wagtail.permissions import policy_registry
from wagtail_localize.models import StringSegment, StringTranslation, Translation

from cms.translation.guard.content_checks import check_page, check_translation
from cms.translation.guard.places import place_label
from cms.translation.guard.zh_hant import SimplifiedText
from cms.translation.languages import LANGUAGE_ROOT_DEPTH, SOURCE_LANGUAGE, TARGET_LANGUAGE
from cms.translation.policy.roles import ROLES, Role
from cms.translation.status.statuses import translation_status

GUARDED_LANGUAGE = TARGET_LANGUAGE


class PublishRefused(PermissionDenied):
    """A publish that the roles or the zh-Hant guard forbid; the message says which and why."""


ROLES_CACHE = "translation_roles_cache"


def _roles(user) -> list[Role] | None:
    """The user's roles, or None when no role limits them (anonymous users have no rights).

    Kept on the user object, as Django keeps its permission cache there: a listing asks for
    every row, and the user object lives for one request.
    """
    if not user.is_authenticated or user.is_superuser:
        return None
    if not hasattr(user, ROLES_CACHE):
        groups = set(user.groups.values_list("name", flat=True))
        setattr(user, ROLES_CACHE, [role for role in ROLES if role.group in groups] or None)
    return getattr(user, ROLES_CACHE)


def _languages(user) -> frozenset[str] | None:
    """The languages the user's roles write, or None when no role limits them."""
    roles = _roles(user)
    return None if roles is None else frozenset(role.language for role in roles)


def may_write(user, page: Page) -> bool:
    """Whether the user's role writes the page's language (no role: Wagtail decides alone)."""
    languages = _languages(user)
    return languages is None or page.locale.language_code in languages


def is_language_root(page: Page) -> bool:
    """A language's site root (languages.language_root), right under Wagtail's root: deleting
    it would take the whole language with it."""
    return page.depth <= LANGUAGE_ROOT_DEPTH


def may_delete(user, page: Page) -> bool:
    """Editors delete pages in their own language only, a topic with its digests but not the
    site root their rights are granted on; translators delete nothing."""
    roles = _roles(user)
    if roles is None:
        return True
    return (
        all(role.may_delete for role in roles)
        and may_write(user, page)
        and not is_language_root(page)
    )


def may_set_privacy(user, page: Page) -> bool:
    """Privacy (password, login or group) hides a page and everything below it from readers
    until someone lifts it: a decision about the site, as deleting is; translators do not."""
    return may_delete(user, page)


def may_move(user, page: Page, destination: Page | None = None) -> bool:
    """Moving stays inside the user's language, for the page and where it goes."""
    return may_delete(user, page) and (destination is None or may_write(user, destination))


def may_copy(user, page: Page) -> bool:
    """A copy is a new page: from the user's own language, by a role that adds pages (Wagtail's
    copy form asks the destination's add permission through `can_copy_to`)."""
    roles = _roles(user)
    if roles is not None and not all("add_page" in role.page_permissions for role in roles):
        return False
    return may_write(user, page)


def may_translate(user, source_locale: Locale, target_locale: Locale) -> bool:
    """Role members may start translations from English into zh-hant only (the result is a draft).

    Starting a translation writes no text of the starter's own: it copies the English page as a
    zh-hant draft for translators to translate. The other direction would create English pages
    from zh-hant ones, which no role may.
    """
    if _languages(user) is None:
        return True
    return (
        source_locale.language_code == SOURCE_LANGUAGE
        and target_locale.language_code == TARGET_LANGUAGE
    )


def submission_refusal(instance: Model) -> str | None:
    """Why `instance` may not be submitted for translation (by anyone), or None.

    Submitting copies the page's row, which for a page never published is its draft: the copy
    would put unreleased text (perhaps embargoed, or scheduled for later) in translators' hands
    and, published, before readers. Snippets have no draft here.
    """
    if isinstance(instance, Page) and not instance.live:
        return _("“%(title)s” is not published yet.") % {"title": instance.title}
    return None


def may_edit_snippet(user, model: type[Model]) -> bool:
    """Whether the user may open `model`'s snippet editor (papers: editors, not translators).

    Wagtail's permission policy for the model, the one its snippet edit view asks; the roles
    grant the model permissions it reads (cms.translation.policy.roles).
    """
    return policy_registry.get_by_type(model).user_has_permission(user, "change")


def may_stop_translation(user, page: Page) -> bool:
    """Stopping a translation turns the page into a page of its own, whose fields that stay
    synchronized with English (cms.digests.blocks) anyone editing it may then change: for those
    who own the page's structure, as deleting it is, not for translators."""
    return may_delete(user, page)


def may_restart_translation(user, page: Page) -> bool:
    """Starting a stopped translation again makes its next publish put English's synchronized
    values back on the page, undoing what was decided for it while stopped: the same decision."""
    return may_stop_translation(user, page)


def may_override_synchronized(user, page: Page) -> bool:
    """Replacing a value that stays synchronized with English (a figure's image, cms.digests.blocks)
    on one translation is a decision about the page's structure, as stopping its translation is."""
    return may_stop_translation(user, page)


def may_convert_to_alias(user, page: Page) -> bool:
    """Only administrators may replace a translation by an alias showing the English text."""
    return _languages(user) is None


def guard_findings(page: Page, translation: Translation | None = None) -> list[SimplifiedText]:
    """Simplified-only characters that publishing would put live on a zh-hant page.

    With a translation, its strings (what wagtail-localize would write); otherwise the page as
    given (a revision's content, or the page being edited).
    """
    if page.locale.language_code != GUARDED_LANGUAGE:
        return []
    if translation is not None:
        return check_translation(translation)
    return check_page(page)


# How many problems a refusal names; it counts the rest, so none goes unnoticed.
NAMED_AT_MOST = 5


def listed(problems: list[str]) -> str:
    """`problems` for a message: the first NAMED_AT_MOST, and how many more there are."""
    separator = pgettext("between listed problems", "; ")  # full-width in Chinese
    named = separator.join(problems[:NAMED_AT_MOST])
    more = len(problems) - NAMED_AT_MOST
    if more > 0:
        more_text = ngettext("and %(count)d more", "and %(count)d more", more)
        named += separator + more_text % {"count": more}
    return named


def guard_message(findings: list[SimplifiedText]) -> str:
    details = listed([str(finding) for finding in findings])
    return _("Simplified Chinese characters found, Traditional Chinese expected: {details}").format(
        details=details
    )


def translation_into(page: Page) -> Translation | None:
    """The wagtail-localize translation that writes `page`, if it is a translation."""
    return (
        Translation.objects.filter(
            source__object_id=page.translation_key, target_locale_id=page.locale_id, enabled=True
        )
        .select_related("source", "target_locale")
        .first()
    )


def invalid_strings_message(translation: Translation) -> str | None:
    """Which translated strings wagtail-localize cannot use, where, and why; or None.

    A string with a disallowed tag (or one the page's field refused on the last publish) is
    kept but flagged; wagtail-localize counts it as not translated, which tells the translator
    nothing about what to correct.
    """
    in_source = StringSegment.objects.filter(
        source_id=translation.source_id,
        string_id=OuterRef("translation_of_id"),
        context_id=OuterRef("context_id"),
    )
    # Only strings the source still has: one of a paragraph removed since is not shown to fix.
    flagged = (
        StringTranslation.objects.filter(
            Exists(in_source), locale_id=translation.target_locale_id, has_error=True
        )
        .select_related("context", "translation_of")
        .order_by("context__path")
    )
    problems = [(string.context.path, string.get_error()) for string in flagged]
    problems = [(path, error) for path, error in problems if error]
    if not problems:
        return None
    source = translation.source.as_instance()
    details = listed([f"{place_label(source, path)}: {error}" for path, error in problems])
    return _("Some translations cannot be used: {details}. Correct them first.").format(
        details=details
    )


def untranslated_message(translation: Translation) -> str | None:
    """What is left to translate before `translation` may be published, or None."""
    total, translated = translation.get_progress()
    if translated >= total:
        return None
    return _(
        "{missing} of {total} texts are not translated yet, and readers would see them in "
        "English. Translate them first."
    ).format(missing=total - translated, total=total)


def unreleased_source_message(translation: Translation) -> str | None:
    """Why `translation` may not go live while its source page is not live, or None.

    A draft can be submitted for translation, which copies its text into the target language:
    publishing that would show readers, translated, what the source's readers cannot see yet.
    """
    source = translation.source.get_source_instance()
    if not isinstance(source, Page) or source.live:
        return None
    return _("The {language} page is not live: its translation may not go live before it.").format(
        language=source.locale.get_display_name()
    )


def publish_refusal(user, page: Page, translation: Translation | None = None) -> str | None:
    """Why this user may not publish this page now, or None when they may.

    `user` is None for publishing without a person (scheduled publishing): only the content
    checks apply. Wagtail's own publish permission is checked by Wagtail's views and actions;
    this adds the role's language, the zh-Hant guard and, for a translation (found from the page
    when not given), that its source page is live and every text is translated and usable.
    """
    if user is not None and not may_write(user, page):
        return _("Your role may not publish pages in {language}.").format(
            language=page.locale.get_display_name()
        )
    writing = translation or (translation_into(page) if page.pk is not None else None)
    if writing is not None and (unreleased := unreleased_source_message(writing)):
        return unreleased + " " + _("Not published.")
    if writing is not None and (invalid := invalid_strings_message(writing)):
        return invalid + " " + _("Not published.")
    if writing is not None and (untranslated := untranslated_message(writing)):
        return untranslated + " " + _("Not published.")
    findings = guard_findings(page, translation)
    if findings:
        return guard_message(findings) + " " + _("Not published.")
    return None


def unreviewed_question(page: Page) -> str | None:
    """What to ask before publishing `page` while some of its texts are not reviewed, or None.

    Asked, not refused: a translator may decide a machine translation is good enough. Counted
    as the translation status counts them, so the question, the report and the API agree.
    """
    status = translation_status(page)
    count = status.machine_segments if status is not None else 0
    if not count:
        return None
    return ngettext(
        "%(count)d text was filled in automatically (machine translation, translation memory "
        "or the previous translation of changed English) and nobody has reviewed it. Publish "
        "it as it is?",
        "%(count)d texts were filled in automatically (machine translation, translation memory "
        "or the previous translation of changed English) and nobody has reviewed them. Publish "
        "them as they are?",
        count,
    ) % {"count": count}


def may_publish(user, page: Page) -> bool:
    """Wagtail's publish permission on the page and the role's language (not yet the guard)."""
    return page.permissions_for_user(user).can_publish() and may_write(user, page)
