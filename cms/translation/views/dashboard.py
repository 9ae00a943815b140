"""The dashboard panel that shows a translator the pages waiting for them: the queue's head,
kept between visits until a write or a draft changes it (cms.translation.workflow.kept)."""

from django.middleware.csrf import get_token
from django.urls import reverse
from wagtail.admin.ui.components import Component

from cms.translation.workflow.kept import kept
from cms.translation.workflow.queue import QUEUE_LABELS, translation_queue

PANEL_ROWS = 10


class PagesWaitingForTranslationPanel(Component):
    name = "pages_waiting_for_translation"
    template_name = "translation/pages_waiting_panel.html"
    order = 90  # above Wagtail's own panels: it is a translator's to-do list

    def get_context_data(self, parent_context):
        context = super().get_context_data(parent_context)
        request = parent_context["request"]
        pages = kept("head", lambda: list(translation_queue()[:PANEL_ROWS]))
        context.update(
            {
                "rows": [{"page": page, "label": QUEUE_LABELS[page.queue_state]} for page in pages],
                "queue_url": reverse("translation_queue"),
                "report_url": reverse("translation_status_report"),
                "csrf_token": get_token(request),
                "request": request,
            }
        )
        return context
