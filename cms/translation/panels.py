"""The dashboard panel that shows a translator the pages waiting for them."""

from django.urls import reverse
from wagtail.admin.ui.components import Component

from .selectors import pages_waiting_for_translation
from .views import STATE_LABELS


class PagesWaitingForTranslationPanel(Component):
    name = "pages_waiting_for_translation"
    template_name = "translation/pages_waiting_panel.html"
    order = 90  # above Wagtail's own panels: it is a translator's to-do list

    def get_context_data(self, parent_context):
        context = super().get_context_data(parent_context)
        request = parent_context["request"]
        waiting = pages_waiting_for_translation(request.user)
        context.update(
            {
                "rows": [
                    {"page": page, "status": status, "label": STATE_LABELS[status.state]}
                    for page, status in waiting
                ],
                "report_url": reverse("translation_status_report"),
                "request": request,
            }
        )
        return context
