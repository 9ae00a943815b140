"""Publishing a page as a person on Wagtail's generic paths: bulk publish and the admin API.

Both publish the page's latest revision. For a translated page that revision can be stale:
the translation editor saves the translator's strings, not a revision, so the latest revision
may still hold the English text a sync or the first submission copied in, and publishing it
put that live while the report called the page up to date. Here a translated page is published
from its strings, as wagtail-localize's editor does (`prefill.publish_translation`, through its
`save_target`), and every page is refused first what `policy.publish_refusal` refuses, checking
what would really go live: the translation's strings, or the latest revision's content. Texts
filled in automatically that nobody reviewed are refused here: the page editor asks before
publishing them (`policy.unreviewed_question`), and these paths have no one to ask.
"""

from django.utils.translation import gettext as _
from wagtail.models import Page

from cms.translation.policy import rules as policy
from cms.translation.workflow.prefill import publish_translation


def publish_refusal(user, page: Page) -> str | None:
    """Why `user` may not publish `page` on these paths now, or None when they may."""
    page = page.specific
    if user is not None and not policy.may_publish(user, page):
        return _("You may not publish this page.")
    translation = policy.translation_into(page)
    if translation is None:
        return policy.publish_refusal(user, page.get_latest_revision_as_object())
    refusal = policy.publish_refusal(user, page, translation)
    if refusal is None and policy.unreviewed_question(page):
        # The page editor asks before publishing texts nobody reviewed; these paths cannot ask.
        return _(
            "some texts were filled in automatically; review them in the translation editor, "
            "then publish."
        )
    return refusal


def publish(page: Page, user) -> Page:
    """Publish what `page` would show (see the module's docstring) as `user`, or raise
    `policy.PublishRefused` saying why not. A revision scheduled for later stays scheduled
    (Wagtail's publish schedules a revision whose go-live date is still to come)."""
    page = page.specific
    reason = publish_refusal(user, page)
    if reason:
        raise policy.PublishRefused(reason)
    translation = policy.translation_into(page)
    if translation is not None:
        return publish_translation(translation, user=user)
    revision = page.get_latest_revision() or page.save_revision(user=user)
    revision.publish(user=user)
    return page
