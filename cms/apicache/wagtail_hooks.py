"""Wagtail wiring of the change log: the changes feed's endpoint (cms.api.router)."""

from wagtail import hooks

from .changes_api import ChangesAPIViewSet


@hooks.register("register_api_endpoint")
def register_changes_endpoint() -> tuple[str, type[ChangesAPIViewSet]]:
    return "changes", ChangesAPIViewSet
