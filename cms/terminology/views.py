"""Admin screens: "Translate with ...", the page's memory and glossary, the report, the exchange."""

from collections import defaultdict

from django import forms
from django.contrib import messages
from django.core.exceptions import ObjectDoesNotExist, PermissionDenied
from django.db import transaction
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST
from django.views.generic import FormView, TemplateView
from wagtail.admin.utils import get_valid_next_url_from_request
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.models import Page
from wagtail_localize.machine_translators import get_machine_translator
from wagtail_localize.models import StringSegment, StringTranslation, Translation
from wagtail_localize.views.edit_translation import (
    apply_machine_translation,
    user_can_edit_instance,
)

from cms.translation.policy.rules import translation_into
from cms.translation.status.tool_names import tool_name_to_store
from cms.translation.workflow.queue import CannotTranslate, may_work_the_queue, open_translation

from . import checks, exchange, memory
from .glossary import load_terms, plain_text, terms_in
from .models import GlossaryTerm
from .translator import MEMORY, MEMORY_TOOL_NAME

VIEW_PERMISSION = "terminology.view_glossaryterm"
IMPORT_PERMISSIONS = ("terminology.add_glossaryterm", "terminology.change_glossaryterm")


class AdminScreen(WagtailAdminTemplateMixin):
    """Wagtail's page furniture, the screen's own title last in the breadcrumbs."""

    def get_breadcrumbs_items(self):
        return [*self.breadcrumbs_items, {"url": "", "label": self.get_page_title()}]


def untranslated_segments(translation: Translation) -> dict:
    """{StringValue: [(string id, context id)]} of the segments with no translation yet."""
    taken = memory.translated_strings(translation)
    segments = defaultdict(list)
    for segment in translation.source.stringsegment_set.select_related("string"):
        if (segment.string_id, segment.context_id) not in taken:
            segments[segment.string.as_value()].append((segment.string_id, segment.context_id))
    return segments


def fill_from_memory_and_machine(translation: Translation, user, translator) -> tuple[int, int]:
    """Translate the untranslated segments; each marked with where its text came from.
    Returns how many texts were filled, of how many untranslated.

    Segments a translator has filled (any stored translation) are never touched.
    """
    segments = untranslated_segments(translation)
    if not segments:
        return 0, 0
    filled = 0
    answers = translator.translate_with_origins(
        translation.source.locale, translation.target_locale, segments.keys()
    )
    with transaction.atomic():
        for string, places in segments.items():
            value, origin = answers.get(string, (None, None))
            if value is None or value.data is None:
                continue
            filled += 1
            tool_name = tool_name_to_store(
                MEMORY_TOOL_NAME if origin == MEMORY else translator.display_name
            )
            for string_id, context_id in places:
                StringTranslation.objects.get_or_create(
                    translation_of_id=string_id,
                    locale_id=translation.target_locale_id,
                    context_id=context_id,
                    defaults={
                        "data": value.data,
                        "translation_type": StringTranslation.TRANSLATION_TYPE_MACHINE,
                        "tool_name": tool_name,
                        "last_translated_by": user,
                        "has_error": False,
                        "field_error": "",
                    },
                )
    return filled, len(segments)


def target_or_new_draft(translation: Translation, user):
    """What `translation` writes to. A page whose translation is gone (its draft deleted after
    the translation was started) gets it again as a draft, as the translator's queue creates
    it, for a user who may work the queue. CannotTranslate says why there is none otherwise."""
    try:
        return translation.get_target_instance()
    except ObjectDoesNotExist:
        pass
    source = translation.source.get_source_instance()
    if not isinstance(source, Page):
        raise CannotTranslate(
            gettext(
                "This translation has nothing to translate into: submit it for translation again."
            )
        )
    language = translation.target_locale.language_code
    if not may_work_the_queue(user, language):
        raise PermissionDenied
    return open_translation(page=source, user=user, language=language).page


@require_POST
def machine_translate(request, translation_id: int):
    """wagtail-localize's "Translate with ..." at its own URL, memory first where configured."""
    translator = get_machine_translator()
    if translator is None:
        raise Http404
    translation = get_object_or_404(Translation, pk=translation_id)
    try:
        target = target_or_new_draft(translation, request.user)
    except CannotTranslate as error:
        messages.error(request, str(error))
        return redirect(get_valid_next_url_from_request(request) or "wagtailadmin_home")
    if not user_can_edit_instance(request.user, target):
        raise PermissionDenied
    if not translator.can_translate(translation.source.locale, translation.target_locale):
        raise Http404
    if hasattr(translator, "translate_with_origins"):
        filled, left = fill_from_memory_and_machine(translation, request.user, translator)
    elif apply_machine_translation(translation.pk, request.user, translator):
        filled = left = None  # another machine translator: it does not say how many it filled
    else:
        filled = left = 0
    if filled is None:
        messages.success(
            request, gettext("Successfully translated with %s.") % translator.display_name
        )
    elif not left:
        messages.warning(request, gettext("There isn't anything left to translate."))
    elif not filled:
        messages.warning(
            request,
            gettext("No translation found with %(name)s for the %(left)d untranslated texts.")
            % {"name": translator.display_name, "left": left},
        )
    else:
        messages.success(
            request,
            gettext("Translated %(filled)d of %(left)d untranslated texts with %(name)s.")
            % {"filled": filled, "left": left, "name": translator.display_name},
        )
    return redirect(get_valid_next_url_from_request(request) or "wagtailadmin_home")


class PageMemoryView(AdminScreen, TemplateView):
    """For a page being translated: each segment's fuzzy matches and glossary terms."""

    template_name = "terminology/page_memory.html"
    page_title = _("Memory and glossary")
    header_icon = "wagtail-localize-language"

    def dispatch(self, request, *args, **kwargs):
        self.page = get_object_or_404(Page, pk=kwargs["page_id"]).specific
        if not self.page.permissions_for_user(request.user).can_edit():
            raise PermissionDenied
        self.translation = translation_into(self.page)
        if self.translation is None:
            raise Http404(gettext("This page is not a translation."))
        return super().dispatch(request, *args, **kwargs)

    def get_page_subtitle(self):
        return self.page.get_admin_display_title()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        terms = load_terms()
        locale = self.page.locale
        current = memory.translated_strings(self.translation)
        rows = []
        segments = list(
            StringSegment.objects.filter(source=self.translation.source)
            .select_related("string", "context")
            .order_by("order")
        )
        english_texts = [segment.string.data for segment in segments]
        fuzzy = memory.fuzzy_matches_each(locale, english_texts, limit=3)
        for segment, english, found in zip(segments, english_texts, fuzzy, strict=True):
            matches = [match for match in found if match.page_id != self.page.pk]
            rows.append(
                {
                    "path": segment.context.path,
                    "english": plain_text(english),
                    "translation": plain_text(
                        current.get((segment.string_id, segment.context_id), "")
                    ),
                    "matches": matches,
                    "terms": terms_in(english, terms),
                }
            )
        context.update(
            page=self.page,
            rows=rows,
            violations=checks.check_translation(self.translation, self.page),
            threshold=memory.fuzzy_threshold(),
        )
        return context


class TerminologyReportView(AdminScreen, TemplateView):
    """Every live zh-hant page whose translation departs from the glossary (from the memory)."""

    template_name = "terminology/report.html"
    page_title = _("Terminology check")
    header_icon = "wagtail-localize-language"

    def dispatch(self, request, *args, **kwargs):
        if not request.user.has_perm(VIEW_PERMISSION):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            violations=checks.check_memory(),
            term_count=GlossaryTerm.objects.count(),
            can_import=self.request.user.has_perms(IMPORT_PERMISSIONS),
            **kwargs,
        )


def export_glossary(request, file_format: str):
    if not request.user.has_perm(VIEW_PERMISSION):
        raise PermissionDenied
    terms = GlossaryTerm.objects.all()
    if file_format == "csv":
        response = HttpResponse(exchange.export_csv(terms), content_type="text/csv; charset=utf-8")
    elif file_format == "tbx":
        response = HttpResponse(exchange.export_tbx(terms), content_type="application/x-tbx+xml")
    else:
        raise Http404
    response["Content-Disposition"] = f'attachment; filename="glossary.{file_format}"'
    return response


class GlossaryImportForm(forms.Form):
    file = forms.FileField(
        label=_("Glossary file"), help_text=_("A .csv or .tbx file, as exported here.")
    )

    def clean_file(self):
        """Read, parse and check the whole file; `self.plan` is what an import would save."""
        upload = self.cleaned_data["file"]
        try:
            rows = exchange.parse(upload.name, exchange.read_upload(upload))
            self.plan = exchange.plan_import(rows)
        except exchange.GlossaryImportError as error:
            raise forms.ValidationError(error.messages) from error
        return upload


class GlossaryImportView(AdminScreen, FormView):
    template_name = "terminology/import.html"
    form_class = GlossaryImportForm
    page_title = _("Import glossary")
    header_icon = "upload"

    def dispatch(self, request, *args, **kwargs):
        if not request.user.has_perms(IMPORT_PERMISSIONS):
            raise PermissionDenied
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        added, updated = exchange.apply(form.plan)
        messages.success(
            self.request,
            gettext("Glossary imported: %(added)d terms added, %(updated)d updated.")
            % {"added": added, "updated": updated},
        )
        return redirect("terminology_report")
