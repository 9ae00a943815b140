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
from wagtail.admin.views.generic import CreateView, EditView, InspectView
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


delivery_permission = DeliveryPermissionPolicy(Delivery)
register_permission_policy(Delivery, delivery_permission)


def show_secret_once(request, endpoint: Endpoint) -> None:
    request.session[SECRET_SESSION_KEY] = {"pk": endpoint.pk, "secret": endpoint.secret}


class EndpointCreateView(CreateView):
    def get_success_url(self) -> str:
        show_secret_once(self.request, self.object)
        return reverse("webhook_endpoints:secret", args=[self.object.pk])


class EndpointEditView(EditView):
    @property
    def header_more_buttons(self):
        buttons = list(super().header_more_buttons)
        pk = self.object.pk
        buttons += [
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
        return buttons

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        if self.object.disabled_reason and not self.object.active:
            messages.warning(
                self.request,
                _("This endpoint was disabled: %(reason)s Make it active again once it answers.")
                % {"reason": self.object.disabled_reason},
            )
        return context


def breadcrumbs(index_url_name: str, index_label: str, label: str) -> list[dict]:
    """Home > the listing > this screen, as Wagtail's own views show them."""
    return [
        *WagtailAdminTemplateMixin.breadcrumbs_items,
        {"url": reverse(index_url_name), "label": index_label},
        {"url": "", "label": label},
    ]


class ConfirmView(WagtailAdminTemplateMixin, TemplateView):
    """A confirmation page (GET) for an action done by POST, for users who may manage."""

    model = Endpoint
    template_name = "webhooks/confirm.html"
    header_icon = "link"
    title = ""
    message = ""
    button = ""

    def dispatch(self, request, *args, **kwargs):
        if not may_manage(request.user):
            raise PermissionDenied
        self.object = get_object_or_404(self.model, pk=kwargs["pk"])
        return super().dispatch(request, *args, **kwargs)

    def get_page_title(self) -> str:
        return self.title

    def get_page_subtitle(self) -> str:
        return str(self.object)

    def get_breadcrumbs_items(self) -> list[dict]:
        index = f"webhook_{'deliveries' if self.model is Delivery else 'endpoints'}:index"
        label = _("Webhook deliveries") if self.model is Delivery else _("Webhooks")
        return breadcrumbs(index, label, self.get_header_title())

    def get_context_data(self, **kwargs):
        if self.model is Delivery:
            cancel_url = reverse("webhook_deliveries:inspect", args=[self.object.pk])
        else:
            cancel_url = reverse("webhook_endpoints:edit", args=[self.object.pk])
        return super().get_context_data(
            object=self.object,
            message=self.message,
            button=self.button,
            cancel_url=cancel_url,
            **kwargs,
        )

    def post(self, request, *args, **kwargs):
        return self.act()


class SendTestView(ConfirmView):
    title = gettext_lazy("Send test event")
    message = gettext_lazy("Send a signed webhook.test event to this endpoint now?")
    button = gettext_lazy("Send test event")

    def act(self):
        delivery = outbox.enqueue_test_event(self.object)
        messages.success(
            self.request,
            _("Test event %(id)s queued; its outcome shows in the delivery log.")
            % {"id": delivery.webhook_id},
        )
        return redirect(reverse("webhook_deliveries:index") + f"?endpoint={self.object.pk}")


class RotateSecretView(ConfirmView):
    title = gettext_lazy("Rotate secret")
    message = gettext_lazy(
        "Make a new secret? The old one keeps signing too (a second signature) for the "
        "next hours, so the front end has time to switch."
    )
    button = gettext_lazy("Rotate secret")

    def act(self):
        hours = settings.WEBHOOK_SECRET_ROTATION_HOURS
        self.object.rotate_secret(timedelta(hours=hours))
        show_secret_once(self.request, self.object)
        return redirect("webhook_endpoints:secret", self.object.pk)


class SecretView(WagtailAdminTemplateMixin, TemplateView):
    """The new secret, once: it is taken out of the session as it is shown."""

    template_name = "webhooks/secret.html"
    header_icon = "key"
    page_title = gettext_lazy("Webhook secret")

    def get_breadcrumbs_items(self) -> list[dict]:
        return breadcrumbs("webhook_endpoints:index", _("Webhooks"), str(self.page_title))

    def get(self, request, pk: int):
        if not may_manage(request.user):
            raise PermissionDenied
        shown = request.session.pop(SECRET_SESSION_KEY, None)
        if not shown or shown["pk"] != pk:
            messages.warning(request, _("A secret is shown only once, when it is made."))
            return redirect("webhook_endpoints:edit", pk)
        endpoint = get_object_or_404(Endpoint, pk=pk)
        return self.render_to_response(
            self.get_context_data(endpoint=endpoint, secret=shown["secret"])
        )


class EndpointViewSet(ModelViewSet):
    """Settings > Webhooks."""

    model = Endpoint
    icon = "link"
    menu_label = gettext_lazy("Webhooks")
    add_to_settings_menu = True
    copy_view_enabled = False
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
    title = gettext_lazy("Resend")
    message = gettext_lazy(
        "Send this event again, with the same webhook-id and a fresh round of retries?"
    )
    button = gettext_lazy("Resend")

    def act(self):
        outbox.resend(self.object)
        messages.success(self.request, _("Delivery queued again."))
        return redirect("webhook_deliveries:inspect", self.object.pk)


class DeliveryViewSet(ModelViewSet):
    """Settings > Webhook deliveries: every event sent, its status, code and duration."""

    model = Delivery
    permission_policy = delivery_permission
    icon = "list-ul"
    menu_label = gettext_lazy("Webhook deliveries")
    add_to_settings_menu = True
    copy_view_enabled = False
    inspect_view_enabled = True
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
