"""Admin wiring for the translation workflow: report, dashboard panel, roles and the guard.

Every check of who may do what is `cms.translation.policy.rules`; the hooks here only put it on each
admin path: Wagtail's page views and bulk actions through their `before_*` hooks, its admin
API's page actions by serving a policy-checked pages endpoint (`construct_admin_api`), and
wagtail-localize's submit, update, stop, override, convert and PO upload views by serving our
subclasses and wrappers at their URLs.
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.templatetags.static import static
from django.urls import include, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import hooks
from wagtail.admin.menu import MenuItem
from wagtail.admin.views.pages.utils import get_valid_next_url_from_request
from wagtail.admin.widgets.button import BaseDropdownMenuButton
from wagtail.models import Page

from cms.translation.guard.zh_hant import is_traditional_chinese
from cms.translation.policy import rules as policy
from cms.translation.views import admin_api, bulk_actions, po_upload, snippets_api
from cms.translation.views import localize as localize_views
from cms.translation.views.coverage import TranslationCoveragePanel, coverage_languages
from cms.translation.views.dashboard import PagesWaitingForTranslationPanel
from cms.translation.views.menu_labels import relabel_in_place
from cms.translation.views.queue import OpenTranslationView, TranslationQueueView
from cms.translation.views.report import (
    SYNC_PERMISSION,
    SyncOutOfDateView,
    TranslationStatusReportView,
)
from cms.translation.workflow import publishing, tree
from cms.translation.workflow.queue import may_work_the_queue


@hooks.register("register_admin_urls", order=-1)
def replace_localize_views():
    """Our role-checked views at wagtail-localize's paths; earlier hooks' URLs match first."""
    urls = [
        path(
            "submit/page/<int:page_id>/",
            localize_views.SubmitPageTranslationView.as_view(),
            name="submit_page_translation",
        ),
        path(
            "submit/snippet/<slug:app_label>/<slug:model_name>/<str:pk>/",
            localize_views.SubmitSnippetTranslationView.as_view(),
            name="submit_snippet_translation",
        ),
        path(
            "update/<int:translation_source_id>/",
            localize_views.UpdateTranslationsView.as_view(),
            name="update_translations",
        ),
        path(
            "translate/<int:translation_id>/strings/<int:string_segment_id>/edit/",
            localize_views.edit_string_translation,
            name="edit_string_translation",
        ),
        path(
            "translate/<int:translation_id>/overrides/<int:overridable_segment_id>/edit/",
            localize_views.edit_override,
            name="edit_override",
        ),
        path(
            "translate/<int:translation_id>/disable/",
            localize_views.stop_translation,
            name="stop_translation",
        ),
        path(
            "translate/<int:translation_id>/pofile/upload/",
            po_upload.upload_pofile,
            name="upload_pofile",
        ),
        path(
            "page/<int:page_id>/convert_to_alias/",
            localize_views.convert_to_alias,
            name="convert_to_alias",
        ),
        path(
            "api/snippets/<slug:app_label>/<slug:model_name>/",
            snippets_api.SnippetViewSet.as_view({"get": "list"}),
            name="snippets_api_listing",
        ),
        path(
            "api/snippets/<slug:app_label>/<slug:model_name>/<str:pk>/",
            snippets_api.SnippetViewSet.as_view({"get": "retrieve"}),
            name="snippets_api_detail",
        ),
    ]
    return [path("localize/", include((urls, "translation_localize")))]


@hooks.register("insert_global_admin_css")
def translation_admin_css():
    return format_html('<link rel="stylesheet" href="{}">', static("translation/admin.css"))


@hooks.register("register_admin_urls")
def register_translation_urls():
    return [
        path(
            "reports/translation-status/",
            TranslationStatusReportView.as_view(),
            name="translation_status_report",
        ),
        path(
            "reports/translation-status/results/",
            TranslationStatusReportView.as_view(results_only=True),
            name="translation_status_report_results",
        ),
        path(
            "reports/translation-status/sync/",
            SyncOutOfDateView.as_view(),
            name="translation_sync_out_of_date",
        ),
        path(
            "reports/translation-queue/", TranslationQueueView.as_view(), name="translation_queue"
        ),
        path(
            "reports/translation-queue/results/",
            TranslationQueueView.as_view(results_only=True),
            name="translation_queue_results",
        ),
        path(
            "reports/translation-queue/<int:page_id>/open/",
            OpenTranslationView.as_view(),
            name="translation_queue_open",
        ),
    ]


class TranslationStatusMenuItem(MenuItem):
    def is_shown(self, request):
        return request.user.has_perm(SYNC_PERMISSION)


@hooks.register("register_reports_menu_item")
def register_translation_status_menu_item():
    return TranslationStatusMenuItem(
        gettext_lazy("Translation status"),
        reverse("translation_status_report"),
        icon_name="wagtail-localize-language",
        order=8900,
    )


class TranslationQueueMenuItem(MenuItem):
    def is_shown(self, request):
        return may_work_the_queue(request.user)


@hooks.register("register_reports_menu_item")
def register_translation_queue_menu_item():
    return TranslationQueueMenuItem(
        gettext_lazy("Translator's queue"),
        reverse("translation_queue"),
        icon_name="wagtail-localize-language",
        order=8850,
    )


@hooks.register("construct_reports_menu")
def translate_reports_menu_labels(request, menu_items):
    relabel_in_place(menu_items)


@hooks.register("construct_help_menu")
def translate_help_menu_labels(request, menu_items):
    relabel_in_place(menu_items)


@hooks.register("construct_homepage_panels")
def add_pages_waiting_panel(request, panels):
    if may_work_the_queue(request.user):
        panels.append(PagesWaitingForTranslationPanel())


@hooks.register("construct_homepage_panels")
def add_translation_coverage_panel(request, panels):
    locales = coverage_languages(request.user)
    if locales:
        panels.append(TranslationCoveragePanel(locales))


def _refuse(request, reason: str, fallback: str):
    messages.error(request, reason)
    return redirect(get_valid_next_url_from_request(request) or fallback)


@hooks.register("before_edit_page", order=-1)
def check_restart_translation(request, page):
    """Ahead of wagtail-localize's hook, which restarts a stopped translation for any editor."""
    return localize_views.refuse_restart(request, page)


@hooks.register("before_edit_page", order=-1)
def guard_traditional_chinese(request, page):
    """Refuse to publish Simplified characters (the policy's refusal, said once).

    Runs before wagtail-localize's own hook, which replaces the edit view with its translation
    editor for translated pages. The editor itself shows each segment's Simplified characters
    and their Traditional forms, on the segment (templatetags/translation_policy.py), and
    again when the segment is saved (localize_views.edit_string_translation).
    """
    if not is_traditional_chinese(page.locale.language_code):
        return None
    translation = policy.translation_into(page)
    if translation is None:
        return None
    if request.method == "POST" and request.POST.get("action") == "publish":
        reason = policy.publish_refusal(request.user, page, translation)
        if reason:
            messages.error(request, reason)
            return redirect(request.path)
    return None


# Posted with "Publish" once the publisher has confirmed publishing unreviewed texts.
CONFIRM_UNREVIEWED = "confirm-unreviewed"


@hooks.register("before_edit_page", order=-1)
def confirm_unreviewed_publish(request, page):
    """Publishing texts nobody reviewed asks first, on a page of its own (policy's question).

    After the guard (registered above it), so a refused publish is refused without asking; ahead
    of wagtail-localize's hook, whose translation editor would publish at once.
    """
    if request.method != "POST" or request.POST.get("action") != "publish":
        return None
    if request.POST.get(CONFIRM_UNREVIEWED) or policy.translation_into(page) is None:
        return None
    question = policy.unreviewed_question(page)
    if question is None:
        return None
    return TemplateResponse(
        request,
        "translation/confirm_unreviewed_publish.html",
        {
            "page_title": _("Publish texts nobody reviewed?"),
            "header_icon": "warning",
            "question": question,
            "page": page,
            "confirm_field": CONFIRM_UNREVIEWED,
            "edit_url": reverse("wagtailadmin_pages:edit", args=[page.pk]),
        },
    )


@hooks.register("before_publish_page")
def check_publish_in_page_editor(request, page):
    """Wagtail's own edit and create views: the role's language and the guard, on publish."""
    if request.method != "POST" or "action-publish" not in request.POST:
        return None
    if isinstance(page, Page) and page.pk:
        reason = policy.publish_refusal(request.user, page)
        if reason:
            return _refuse(request, reason, reverse("wagtailadmin_pages:edit", args=[page.pk]))
    return None


@hooks.register("before_delete_page")
def check_delete(request, page):
    if not policy.may_delete(request.user, page):
        raise PermissionDenied


hooks.register("construct_translated_pages_to_cascade_actions", tree.translations_cascaded)


@hooks.register("before_move_page")
def check_move(request, page, destination):
    if not policy.may_move(request.user, page, destination):
        raise PermissionDenied


@hooks.register("before_copy_page")
def check_copy(request, page):
    if not policy.may_copy(request.user, page):
        raise PermissionDenied


@hooks.register("before_bulk_action")
def check_bulk_action(request, action_type, objects, action):
    """Bulk delete, move and publish of pages ask the same policy as the single-page views."""
    pages = [obj for obj in objects if isinstance(obj, Page)]
    if action_type == "delete" and not all(policy.may_delete(request.user, p) for p in pages):
        raise PermissionDenied
    if action_type == "move" and not all(policy.may_move(request.user, p) for p in pages):
        raise PermissionDenied
    if action_type == "publish":
        for page in pages:
            reason = publishing.publish_refusal(request.user, page)
            if reason:
                title = page.get_admin_display_title()
                return _refuse(request, f"{title}: {reason}", reverse("wagtailadmin_home"))
    return None


# After Wagtail's own (order 0), so these replace its Delete, Unpublish and Publish of pages.
hooks.register("register_bulk_action", bulk_actions.DeleteWithTranslationsBulkAction, order=1)
hooks.register("register_bulk_action", bulk_actions.UnpublishWithTranslationsBulkAction, order=1)
hooks.register("register_bulk_action", bulk_actions.PublishThroughPolicyBulkAction, order=1)


@hooks.register("construct_admin_api")
def policy_checked_admin_api(router):
    """The admin API's pages endpoint, its page actions asking the policy (admin_api)."""
    router.register_endpoint("pages", admin_api.PolicyCheckedPagesAdminAPIViewSet)


@hooks.register("after_bulk_action")
def cascade_bulk_action_to_translations(request, action_type, objects, action):
    pages = [obj for obj in objects if isinstance(obj, Page)]
    tree.cascade_bulk_action(pages, action_type, request.user)


def _refused_urls(user, page: Page) -> set[str]:
    refused = set()
    if not policy.may_delete(user, page):
        refused.add(reverse("wagtailadmin_pages:delete", args=[page.pk]))
    if not policy.may_move(user, page):
        refused.add(reverse("wagtailadmin_pages:move", args=[page.pk]))
    if not policy.may_copy(user, page):
        refused.add(reverse("wagtailadmin_pages:copy", args=[page.pk]))
    return refused


def _allowed(buttons, refused: set[str]) -> list:
    return [b for b in buttons if not b.url or b.url.split("?")[0] not in refused]


@hooks.register("construct_page_listing_buttons")
def hide_refused_listing_buttons(buttons, page, user, context=None):
    """No Delete, Move or Copy in the page listing for users the policy would refuse.

    Delete and Move also follow the page models' permission tester (cms.translation.policy.pages);
    Copy does not, and the views refuse anyway (check_delete and friends).
    """
    refused = _refused_urls(user, page)
    if not refused:
        return
    for button in buttons:
        if isinstance(button, BaseDropdownMenuButton):
            button.dropdown_buttons = _allowed(button.dropdown_buttons, refused)
    buttons[:] = _allowed(buttons, refused)


@hooks.register("construct_page_action_menu")
def hide_refused_actions(menu_items, request, context):
    """No "Convert to alias page" or "Start Synced translation" for users the policy refuses."""
    page = context.get("page")
    if page is None or page.pk is None:
        return
    refused = set()
    if not policy.may_convert_to_alias(request.user, page):
        refused.add("localize-convert-to-alias")
    if not policy.may_restart_translation(request.user, page):
        refused.add(localize_views.RESTART_FIELD)
    menu_items[:] = [item for item in menu_items if item.name not in refused]
