"""Settings > Webhooks: endpoints, their delivery log, and the actions on them.

Who may do anything here is Django's model permissions on Endpoint (add, change, delete;
superusers have them all): webhooks are a site setting for admins, not an editor's or a
translator's business. The delivery log is readable, and resendable, by those who may change
endpoints; nobody edits it. A secret is shown once, right after it is made.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView
from wagtail.admin.ui.tables import BooleanColumn, Column
from wagtail.admin.views.generic import CreateView, EditView, IndexView, InspectView
from wagtail.admin.views.generic.base import WagtailAdminTemplateMixin
from wagtail.admin.viewsets.model import ModelViewSet
from wagtail.admin.widgets.button import Button
from wagtail.permission_policies.base import ModelPermissionPolicy
from wagtail.permissions import register_permission_policy

from . import outbox
from .forms import EndpointForm
from .models import Delivery, Endpoint

endpoint_permission = ModelPermissionPolicy(Endpoint)
SECRET_SESSION_KEY = "webhooks-new-secret"


def may_manage(user) -> bool:
    return endpoint_permission.user_has_permission(user, "change")


class DeliveryPermissionPolicy(ModelPermissionPolicy):
    """The log is the worker's: viewable by those who may change endpoints, never edited."""

    def user_has_permission(self, user, action: str) -> bool:
        return action == "view" and may_manage(user)

    def users_with_any_permission(self, actions):
        return endpoint_permission.users_with_any_permission(
            ["change"] if "view" in actions else []
        )


register_permission_policy(Delivery, DeliveryPermissionPolicy(Delivery))


def show_secret_once(request, endpoint: Endpoint) -> None:
    request.session[SECRET_SESSION_KEY] = {"pk": endpoint.pk, "secret": endpoint.secret}


class EndpointIndexView(IndexView):
    def get_base_queryset(self):
        return super().get_base_queryset().select_related("locale")  # the language column


class EndpointCreateView(CreateView):
    def get_success_buttons(self):
        # Wagtail's "Edit" button, for those the edit form would not refuse.
        return super().get_success_buttons() if may_manage(self.request.user) else []

    def get_success_url(self) -> str:
        show_secret_once(self.request, self.object)
        return reverse("webhook_endpoints:secret", args=[self.object.pk])


class EndpointEditView(EditView):
    @property
    def header_more_buttons(self):
        pk = self.object.pk
        return [
            *super().header_more_buttons,
            Button(
                _("Deliveries"),
                url=reverse("webhook_deliveries:index") + f"?endpoint={pk}",
                icon_name="list-ul",
                priority=40,
            ),
            Button(
                _("Send test event"),
                url=reverse("webhook_endpoints:send_test", args=[pk]),
                icon_name="mail",
                priority=50,
            ),
            Button(
                _("Rotate secret"),
                url=reverse("webhook_endpoints:rotate", args=[pk]),
                icon_name="key",
                priority=60,
            ),
        ]

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.object.disabled_reason and not self.object.active:
            messages.warning(
                self.request,
                _("This endpoint was disabled: %(reason)s Make it active again once it answers.")
                % {"reason": self.object.disabled_reason},
            )
        return context


class WebhookScreen(WagtailAdminTemplateMixin, TemplateView):
    """Breadcrumbs Home > the listing > this screen, as Wagtail's own views show them."""

    index_url_name = "webhook_endpoints:index"
    index_label = gettext_lazy("Webhooks")

    def get_breadcrumbs_items(self) -> list[dict]:
        return [
            *self.breadcrumbs_items,
            {"url": reverse(self.index_url_name), "label": self.index_label},
            {"url": "", "label": self.get_header_title()},
        ]


class ConfirmView(WebhookScreen):
    """A confirmation page (GET) for an action done by POST, for users who may manage."""

    model = Endpoint
    cancel_url_name = "webhook_endpoints:edit"
    template_name = "webhooks/confirm.html"
    header_icon = "link"
    message = ""
    button = ""

    def dispatch(self, request, *args, **kwargs):
        if not may_manage(request.user):
            raise PermissionDenied
        self.object = get_object_or_404(self.model, pk=kwargs["pk"])
        return super().dispatch(request, *args, **kwargs)

    def get_page_subtitle(self) -> str:
        return str(self.object)

    def get_context_data(self, **kwargs):
        return super().get_context_data(
            cancel_url=reverse(self.cancel_url_name, args=[self.object.pk]), **kwargs
        )


class SendTestView(ConfirmView):
    page_title = gettext_lazy("Send test event")
    message = gettext_lazy("Send a signed webhook.test event to this endpoint now?")
    button = gettext_lazy("Send test event")

    def post(self, request, *args, **kwargs):
        delivery = outbox.enqueue_test_event(self.object)
        messages.success(
            self.request,
            _("Test event %(id)s queued; its outcome shows in the delivery log.")
            % {"id": delivery.webhook_id},
        )
        return redirect(reverse("webhook_deliveries:index") + f"?endpoint={self.object.pk}")


class RotateSecretView(ConfirmView):
    page_title = gettext_lazy("Rotate secret")
    message = gettext_lazy(
        "Make a new secret? The old one keeps signing too (a second signature) for the "
        "next hours, so the front end has time to switch."
    )
    button = gettext_lazy("Rotate secret")

    def post(self, request, *args, **kwargs):
        hours = settings.WEBHOOK_SECRET_ROTATION_HOURS
        self.object.rotate_secret(timedelta(hours=hours))
        show_secret_once(self.request, self.object)
        return redirect("webhook_endpoints:secret", self.object.pk)


class SecretView(WebhookScreen):
    """The new secret, once: it is taken out of the session as it is shown."""

    template_name = "webhooks/secret.html"
    header_icon = "key"
    page_title = gettext_lazy("Webhook secret")

    def get(self, request, pk: int):
        # Whoever may add an endpoint sees the secret of the one they add (rotating is
        # changing, so a rotated secret is only ever in a manager's session).
        if not endpoint_permission.user_has_any_permission(request.user, ["add", "change"]):
            raise PermissionDenied
        back = reverse("webhook_endpoints:edit", args=[pk])
        if not may_manage(request.user):
            back = reverse(self.index_url_name)
        shown = request.session.pop(SECRET_SESSION_KEY, None)
        if not shown or shown["pk"] != pk:
            messages.warning(request, _("A secret is shown only once, when it is made."))
            return redirect(back)
        endpoint = get_object_or_404(Endpoint, pk=pk)
        return self.render_to_response(
            self.get_context_data(endpoint=endpoint, secret=shown["secret"], done_url=back)
        )


class EndpointViewSet(ModelViewSet):
    """Settings > Webhooks."""

    model = Endpoint
    icon = "link"
    menu_label = gettext_lazy("Webhooks")
    add_to_settings_menu = True
    copy_view_enabled = False
    index_view_class = EndpointIndexView
    add_view_class = EndpointCreateView
    edit_view_class = EndpointEditView
    list_display = [
        "url",
        "description",
        Column("event_labels", label=gettext_lazy("events")),
        "locale",
        BooleanColumn("active", label=gettext_lazy("active")),
        "disabled_reason",
    ]
    search_fields = ["url", "description"]
    search_backend_name = None

    def get_form_class(self, for_update: bool = False) -> type[EndpointForm]:
        return EndpointForm

    def get_urlpatterns(self):
        return [
            *super().get_urlpatterns(),
            path("send-test/<int:pk>/", SendTestView.as_view(), name="send_test"),
            path("rotate/<int:pk>/", RotateSecretView.as_view(), name="rotate"),
            path("secret/<int:pk>/", SecretView.as_view(), name="secret"),
        ]


class DeliveryIndexView(IndexView):
    def get_base_queryset(self):
        return super().get_base_queryset().select_related("endpoint")  # the endpoint column


class DeliveryInspectView(InspectView):
    @property
    def header_more_buttons(self):
        return [
            *super().header_more_buttons,
            Button(
                _("Resend"),
                url=reverse("webhook_deliveries:resend", args=[self.object.pk]),
                icon_name="resubmit",
                priority=50,
            ),
        ]


class ResendView(ConfirmView):
    model = Delivery
    index_url_name = "webhook_deliveries:index"
    index_label = gettext_lazy("Webhook deliveries")
    cancel_url_name = "webhook_deliveries:inspect"
    page_title = gettext_lazy("Resend")
    message = gettext_lazy(
        "Send this event again, with the same webhook-id and a fresh round of retries?"
    )
    button = gettext_lazy("Resend")

    def post(self, request, *args, **kwargs):
        try:
            outbox.resend(self.object)
        except outbox.DeliveryBusy:
            messages.error(
                self.request,
                _(
                    "This delivery is being sent right now; resend it once this attempt has "
                    "finished."
                ),
            )
        else:
            messages.success(self.request, _("Delivery queued again."))
        return redirect("webhook_deliveries:inspect", self.object.pk)


class DeliveryViewSet(ModelViewSet):
    """Settings > Webhook deliveries: every event sent, its status, code and duration."""

    model = Delivery
    icon = "list-ul"
    menu_label = gettext_lazy("Webhook deliveries")
    add_to_settings_menu = True
    copy_view_enabled = False
    inspect_view_enabled = True
    index_view_class = DeliveryIndexView
    inspect_view_class = DeliveryInspectView
    list_display = [
        "event_type",
        "endpoint",
        "status",
        "response_code",
        "duration_ms",
        "attempts",
        "created_at",
    ]
    list_filter = ["status", "event_type", "endpoint"]
    inspect_view_fields = [
        "webhook_id",
        "endpoint",
        "event_type",
        "subject",
        "status",
        "attempts",
        "next_attempt_at",
        "last_attempt_at",
        "response_code",
        "duration_ms",
        "response_excerpt",
        "error",
        "created_at",
        "payload",
    ]
    search_fields = ["webhook_id", "subject"]
    search_backend_name = None
    form_fields = ["event_type"]  # never shown: adding and editing are refused (the policy)

    def get_urlpatterns(self):
        return [
            *super().get_urlpatterns(),
            path("resend/<int:pk>/", ResendView.as_view(), name="resend"),
        ]
