"""wagtail-localize's submit, update and convert-to-alias views, with our roles and drafts.

wagtail-localize checks only `submit_translation` in these views, so anyone allowed to ask for a
translation could publish through them. These subclasses of its public view classes are served
at the same admin URLs (registered ahead of wagtail-localize's own in wagtail_hooks) and ask
`cms.translation.policy.rules` instead:

- submitting ("Translate this page") offers only the directions the user's role may start, only
  for a live page (`policy.submission_refusal`, for everyone), and always makes a draft
  (WAGTAILLOCALIZE_SYNC_LIVE_STATUS_ON_TRANSLATE = False in the settings);
- updating ("Sync translated pages") syncs as a draft, each changed segment starting from its
  previous translation (cms.translation.workflow.previous); "Publish immediately" is offered only to
  users who may publish every translation, and each is published through the policy's checks,
  the zh-Hant guard included, unless it has texts nobody reviewed (those pre-filled ones);
- converting a translation back into an alias is for administrators only;
- stopping a translation, starting a stopped one again, or overriding one of its synchronized
  values (a figure's image), is for those who own the page's structure, not translators;
- saving a text answers with its comment in the translator's language
(cms.translation.views.comments)
  and, for a Traditional Chinese translation, what to write instead of any Simplified-only
  character, which the editor shows on that segment.
"""

from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied, ValidationError
from django.http import Http404, HttpResponseForbidden, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from wagtail.models import Locale, Page
from wagtail_localize.models import Translation
from wagtail_localize.views import (
    convert,
    edit_translation,
    submit_translations,
    update_translations,
)
from wagtail_localize.views.edit_translation import user_can_edit_instance

from cms.translation.guard.zh_hant import is_traditional_chinese, simplified_message
from cms.translation.policy import rules as policy
from cms.translation.views.comments import localize_comments
from cms.translation.workflow.prefill import publish_translation
from cms.translation.workflow.previous import carry_over_previous_translations, segment_strings

# The action menu item and post field of wagtail-localize's "Start Synced translation".
RESTART_FIELD = "localize-restart-translation"


class RoleLimitedSubmitMixin:
    """Offer only the target locales the user's role may translate this object into."""

    def allowed_locales(self) -> list[Locale]:
        return [
            locale
            for locale in Locale.objects.exclude(pk=self.object.locale_id)
            if policy.may_translate(self.request.user, self.object.locale, locale)
        ]

    def get_form(self):
        form = super().get_form()
        field = form.fields["locales"]
        field.queryset = field.queryset.filter(pk__in=[loc.pk for loc in self.allowed_locales()])
        return form

    def refusal(self) -> HttpResponseRedirect | None:
        """Refuse what the policy forbids before wagtail-localize's view does anything."""
        if not self.allowed_locales():
            raise PermissionDenied
        reason = policy.submission_refusal(self.object)
        if reason:
            messages.error(self.request, reason)
            return redirect(reverse("wagtailadmin_home"))
        return None

    def get(self, request, *args, **kwargs):
        return self.refusal() or super().get(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        return self.refusal() or super().post(request, *args, **kwargs)


class SubmitPageTranslationView(
    RoleLimitedSubmitMixin, submit_translations.SubmitPageTranslationView
):
    pass


class SubmitSnippetTranslationView(
    RoleLimitedSubmitMixin, submit_translations.SubmitSnippetTranslationView
):
    pass


class UpdateTranslationsView(update_translations.UpdateTranslationsView):
    """Sync as a draft; publish afterwards only what the policy lets this user publish."""

    def translations(self):
        return self.object.translations.filter(enabled=True).select_related("target_locale")

    def may_publish_all(self) -> bool:
        # Snippets (none are translatable here) are published from their own editor.
        targets = (translation.get_target_instance() for translation in self.translations())
        return all(
            isinstance(target, Page) and policy.may_publish(self.request.user, target)
            for target in targets
        )

    def may_edit_all(self) -> bool:
        """Machine translation writes into every translation: for users who may edit them all."""
        return all(
            user_can_edit_instance(self.request.user, translation.get_target_instance())
            for translation in self.translations()
        )

    def get_form(self):
        form = super().get_form()
        if not self.may_publish_all():
            del form.fields["publish_translations"]
        if "use_machine_translation" in form.fields and not self.may_edit_all():
            del form.fields["use_machine_translation"]
        return form

    def form_valid(self, form):
        publish = form.cleaned_data.get("publish_translations", False)
        form.cleaned_data["publish_translations"] = False
        before = segment_strings(self.object)
        response = super().form_valid(form)
        carry_over_previous_translations(self.object, before)
        if publish:
            for translation in self.translations():
                self.publish(translation)
        return response

    def publish(self, translation) -> None:
        target = translation.get_target_instance()
        reason = policy.publish_refusal(self.request.user, target, translation)
        if reason:
            messages.error(self.request, f"{target.get_admin_display_title()}: {reason}")
            return
        if policy.unreviewed_question(target):
            # Publishing unreviewed texts is asked in the translation editor, one page at a
            # time; a sync pre-fills every changed segment, so it never publishes them unasked.
            messages.warning(
                self.request,
                _("'{title}' was synced but not published: {errors}").format(
                    title=target.get_admin_display_title(),
                    errors=_(
                        "some texts were filled in automatically; review them in the "
                        "translation editor, then publish."
                    ),
                ),
            )
            return
        try:
            publish_translation(translation, user=self.request.user)
        except ValidationError as error:
            messages.error(
                self.request,
                _("'{title}' was synced but not published: {errors}").format(
                    title=target.get_admin_display_title(), errors="; ".join(error.messages)
                ),
            )
            return
        messages.success(
            self.request,
            _("Published '{title}' in {locale}.").format(
                title=target.get_admin_display_title(),
                locale=translation.target_locale.get_display_name(),
            ),
        )


def convert_to_alias(request, page_id: int):
    """wagtail-localize's view, for those the policy lets replace a translation by an alias."""
    page = get_object_or_404(Page, id=page_id)
    if not policy.may_convert_to_alias(request.user, page):
        raise PermissionDenied
    return convert.convert_to_alias(request, page_id)


def translation_target(translation_id: int):
    """The object a translation writes; 404 when either is gone."""
    translation = get_object_or_404(Translation, id=translation_id)
    try:
        return translation.get_target_instance()
    except ObjectDoesNotExist:
        raise Http404 from None


def refused(message: str) -> HttpResponseForbidden:
    """A 403 saying why, answered by the view itself.

    Raising PermissionDenied in an admin view makes Wagtail redirect to the dashboard and queue
    a generic "Sorry, you do not have permission" for whatever page opens next; the translation
    editor's JavaScript, which calls the override URL with fetch, would follow that redirect and
    report only that saving failed.
    """
    return HttpResponseForbidden(message, content_type="text/plain; charset=utf-8")


def stop_translation(request, translation_id: int):
    """wagtail-localize's "Stop Synced translation", for those the policy lets detach the page."""
    target = translation_target(translation_id)
    if isinstance(target, Page) and not policy.may_stop_translation(request.user, target):
        return refused(
            _("Your role may not stop this translation: the page keeps following the English page.")
        )
    return edit_translation.stop_translation(request, translation_id)


def refuse_restart(request, page: Page) -> HttpResponseForbidden | None:
    """wagtail-localize's "Start Synced translation" (a field of a post to the page's edit view),
    for those the policy lets attach the page to its English source again; None lets it go on."""
    if request.method != "POST" or RESTART_FIELD not in request.POST:
        return None
    if policy.may_restart_translation(request.user, page):
        return None
    return refused(
        _(
            "Your role may not start this translation again: the page was detached from the "
            "English page on purpose."
        )
    )


def edit_override(request, translation_id: int, overridable_segment_id: int):
    """wagtail-localize's override of a synchronized value, for those the policy lets."""
    target = translation_target(translation_id)
    if isinstance(target, Page) and not policy.may_override_synchronized(request.user, target):
        return refused(
            _(
                "Your role may not change the values a translation keeps from the English "
                "page (images, links)."
            )
        )
    return edit_translation.edit_override(request, translation_id, overridable_segment_id)


def edit_string_translation(request, translation_id: int, string_segment_id: int):
    """wagtail-localize's save or removal of one text, answered in the translator's language.

    The answer's comment is localized (the editor shows it under the saved text). For a
    Traditional Chinese translation, a saved text with Simplified-only characters gets an `error`
    naming their Traditional forms: the editor shows a segment's `error` on it in red. The text
    is kept as a draft; the zh-Hant guard refuses to publish it.
    """
    response = edit_translation.edit_string_translation(request, translation_id, string_segment_id)
    if not isinstance(getattr(response, "data", None), dict):
        return response
    translation = get_object_or_404(Translation, id=translation_id)
    if "comment" in response.data:
        localize_comments([response.data], translation)
    saved = request.method == "PUT" and response.status_code in (200, 201)
    if saved and is_traditional_chinese(translation.target_locale.language_code):
        problem = simplified_message(response.data.get("data") or "")
        if problem:
            response.data["error"] = problem
    return response
