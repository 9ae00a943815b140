"""Admin wiring: Settings > Webhooks and Settings > Webhook deliveries, and the dashboard panel."""

from wagtail import hooks

from .dashboard import WebhookDeliveriesPanel
from .views import DeliveryViewSet, EndpointViewSet, may_manage


@hooks.register("register_admin_viewset")
def register_webhooks() -> list:
    return [EndpointViewSet("webhook_endpoints"), DeliveryViewSet("webhook_deliveries")]


@hooks.register("construct_homepage_panels")
def add_webhook_deliveries_panel(request, panels):
    if may_manage(request.user):
        panels.append(WebhookDeliveriesPanel())
