"""An admin sets up a webhook in a real browser: adds the endpoint, copies the secret shown
once, sends a test event that the local receiver verifies, and reads the delivery log."""

import pytest

from cms.webhooks.models import Delivery, Endpoint
from tests.support.workers import wait_for
from tests.webhooks.receiver import Receiver

from .test_translation_workflow import log_in, new_browser_page  # noqa: F401 (fixture)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def receiver():
    found = Receiver().start()
    yield found
    found.stop()


def test_an_admin_adds_an_endpoint_and_sends_a_test_event(
    new_browser_page,  # noqa: F811
    django_user_model,
    receiver,
    screenshot,
):
    django_user_model.objects.create_superuser("admin", "admin@example.org", "admin")
    page = new_browser_page()
    log_in(page, "admin")

    page.goto("/admin/webhook_endpoints/new/")
    page.fill("#id_url", receiver.url)
    page.fill("#id_description", "Next.js front end")
    page.get_by_label("Page published").check()
    page.get_by_label("Translation published").check()
    screenshot(page, "webhooks", "endpoint-form")
    page.get_by_role("button", name="Create", exact=True).click()
    page.wait_for_url("**/secret/**")

    secret = page.locator("[data-webhook-secret]").inner_text().strip()
    endpoint = Endpoint.objects.get()
    assert secret == endpoint.secret and secret.startswith("whsec_")
    assert endpoint.events == ["page.published", "translation.published"]
    screenshot(page, "webhooks", "secret-shown-once")
    receiver.secrets.append(secret)
    page.get_by_role("link", name="Done").click()
    assert secret not in page.content()

    page.goto(f"/admin/webhook_endpoints/send-test/{endpoint.pk}/")
    page.get_by_role("button", name="Send test event").click()
    wait_for(lambda: receiver.received, 20, "the test event")
    assert receiver.payloads()[0]["type"] == "webhook.test"
    wait_for(
        lambda: Delivery.objects.filter(status=Delivery.Status.SUCCEEDED).exists(), 20, "success"
    )
    page.goto(f"/admin/webhook_deliveries/?endpoint={endpoint.pk}")
    listing = page.locator("table.listing").inner_text()
    assert "webhook.test" in listing and "Delivered" in listing and "200" in listing
    screenshot(page, "webhooks", "delivery-log")
