"""Admin wiring: Settings > Webhooks and Settings > Webhook deliveries."""

from wagtail import hooks

from .views import DeliveryViewSet, EndpointViewSet


@hooks.register("register_admin_viewset")
def register_webhooks() -> list:
    return [EndpointViewSet("webhook_endpoints"), DeliveryViewSet("webhook_deliveries")]
