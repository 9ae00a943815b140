"""Admin wiring for the translation workflow: report, dashboard panel, and the zh-Hant guard."""

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from wagtail import hooks
from wagtail.admin.menu import MenuItem
from wagtail_localize.models import Translation

from .content_checks import check_translation
from .machine_translators import is_traditional_chinese
from .panels import PagesWaitingForTranslationPanel
from .queue import may_translate
from .queue_views import OpenTranslationView, TranslationQueueView
from .views import SYNC_PERMISSION, SyncOutOfDateView, TranslationStatusReportView


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
        return may_translate(request.user)


@hooks.register("register_reports_menu_item")
def register_translation_queue_menu_item():
    return TranslationQueueMenuItem(
        gettext_lazy("Translator's queue"),
        reverse("translation_queue"),
        icon_name="wagtail-localize-language",
        order=8850,
    )


@hooks.register("construct_homepage_panels")
def add_pages_waiting_panel(request, panels):
    if may_translate(request.user):
        panels.append(PagesWaitingForTranslationPanel())


def _guard_message(findings) -> str:
    details = "; ".join(str(finding) for finding in findings[:5])
    return _("Simplified Chinese characters found, Traditional Chinese expected: {details}").format(
        details=details
    )


@hooks.register("before_edit_page", order=-1)
def guard_traditional_chinese(request, page):
    """Show the translator any Simplified characters, and refuse to publish them.

    Runs before wagtail-localize's own hook, which replaces the edit view with its translation
    editor for translated pages; that editor shows these messages above the segments.
    """
    if not is_traditional_chinese(page.locale):
        return None
    translation = (
        Translation.objects.filter(
            source__object_id=page.translation_key, target_locale_id=page.locale_id, enabled=True
        )
        .select_related("target_locale")
        .first()
    )
    if translation is None:
        return None
    findings = check_translation(translation)
    if not findings:
        return None
    if request.method == "POST" and request.POST.get("action") == "publish":
        messages.error(request, _guard_message(findings) + " " + _("Not published."))
        return redirect(request.path)
    if request.method == "GET":
        messages.warning(request, _guard_message(findings))
    return None
