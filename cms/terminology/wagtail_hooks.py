"""Admin wiring: the glossary snippet, the report, "Translate with ...", editor messages."""

from django.conf import settings
from django.urls import path, reverse
from django.utils.translation import gettext, ngettext
from django.utils.translation import gettext_lazy as _
from wagtail import hooks
from wagtail.admin import messages
from wagtail.admin.menu import MenuItem
from wagtail.admin.widgets import HeaderButton
from wagtail.snippets.models import register_snippet
from wagtail.snippets.views.snippets import IndexView, SnippetViewSet

from cms.ops.snippet_bulk_actions import PermittedBulkActionsMixin
from cms.translation.policy.rules import translation_into

from . import checks, views
from .models import GlossaryTerm


class GlossaryIndexView(PermittedBulkActionsMixin, IndexView):
    """The glossary listing, with its exchange formats and the check at hand (editors, who
    only read it, get no bulk bar)."""

    @property
    def header_buttons(self):
        buttons = [
            *super().header_buttons,
            HeaderButton(
                _("Export TBX"),
                url=reverse("terminology_glossary_export", args=["tbx"]),
                icon_name="download",
            ),
            HeaderButton(
                _("Export CSV"),
                url=reverse("terminology_glossary_export", args=["csv"]),
                icon_name="download",
            ),
            HeaderButton(
                _("Terminology check"), url=reverse("terminology_report"), icon_name="list-ul"
            ),
        ]
        if self.request.user.has_perms(views.IMPORT_PERMISSIONS):
            buttons.append(
                HeaderButton(
                    _("Import CSV or TBX"),
                    url=reverse("terminology_glossary_import"),
                    icon_name="upload",
                )
            )
        return buttons


class GlossaryTermViewSet(SnippetViewSet):
    model = GlossaryTerm
    index_view_class = GlossaryIndexView
    icon = "wagtail-localize-language"
    menu_label = _("Glossary")
    menu_order = 210
    add_to_admin_menu = True
    list_display = ["english", "chinese", "note"]
    # Substring search in the database: translators look terms up by fragments of either language.
    search_fields = ["english", "chinese"]
    search_backend_name = None


register_snippet(GlossaryTermViewSet)


@hooks.register("register_admin_urls", order=-1)
def register_terminology_urls():
    """First, so that "Translate with ..." is served at wagtail-localize's own path and its
    editor's button posts here."""
    return [
        path(
            "localize/translate/<int:translation_id>/machine_translate/",
            views.machine_translate,
            name="terminology_machine_translate",
        ),
        path(
            "reports/terminology/", views.TerminologyReportView.as_view(), name="terminology_report"
        ),
        path(
            "terminology/page/<int:page_id>/",
            views.PageMemoryView.as_view(),
            name="terminology_page_memory",
        ),
        path(
            "terminology/glossary/export.<str:file_format>",
            views.export_glossary,
            name="terminology_glossary_export",
        ),
        path(
            "terminology/glossary/import/",
            views.GlossaryImportView.as_view(),
            name="terminology_glossary_import",
        ),
    ]


class TerminologyMenuItem(MenuItem):
    def is_shown(self, request):
        return request.user.has_perm(views.VIEW_PERMISSION)


@hooks.register("register_reports_menu_item")
def register_terminology_menu_item():
    return TerminologyMenuItem(
        _("Terminology check"),
        reverse("terminology_report"),
        icon_name="wagtail-localize-language",
        order=8950,
    )


def warn_about(request, violations) -> None:
    for violation in violations:
        messages.warning(request, gettext("Glossary: %s") % violation.describe())


@hooks.register("before_edit_page", order=-1)
def terminology_in_translation_editor(request, page):
    """In the translation editor: a link to the page's memory and glossary, and any warnings.

    On publish the warnings are shown, never a refusal: the terminology is advice.
    """
    if page.locale.language_code == settings.LANGUAGE_CODE:
        return None
    translation = translation_into(page)  # an enabled translation, or None
    if translation is None:
        return None
    if request.method == "POST":
        if request.POST.get("action") == "publish":
            count = len(checks.check_translation(translation, page))
            if count:
                messages.warning(
                    request,
                    ngettext(
                        "%(count)d glossary warning; publishing is not blocked.",
                        "%(count)d glossary warnings; publishing is not blocked.",
                        count,
                    )
                    % {"count": count},
                )
        return None
    messages.info(
        request,
        gettext("Translation memory matches and glossary terms for this page."),
        buttons=[
            messages.button(
                reverse("terminology_page_memory", args=[page.pk]), gettext("Memory and glossary")
            )
        ],
    )
    warn_about(request, checks.check_translation(translation, page))
    return None


@hooks.register("after_publish_page")
def terminology_after_publish(request, page):
    """Wagtail's own editor (a translated page edited directly): the same advice, after it."""
    if page.locale.language_code != settings.LANGUAGE_CODE:
        warn_about(request, checks.check_page(page))
