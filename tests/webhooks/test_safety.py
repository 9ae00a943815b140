"""Safe by default: http(s) only; private, loopback and link-local receivers refused under the
production settings (run in a subprocess with cms.settings.production) unless allowed."""

from __future__ import annotations

import json

import pytest

from cms.webhooks import deliveries, outbox
from cms.webhooks.addresses import UnsafeURL, check_url
from cms.webhooks.models import Delivery
from tests.ops.test_production_settings import production_env, run_python

CHECK = """
import json, django
django.setup()
from cms.webhooks.addresses import UnsafeURL, check_url
verdicts = {}
for url in %r:
    try:
        check_url(url)
        verdicts[url] = "allowed"
    except UnsafeURL as error:
        verdicts[url] = str(error)
print(json.dumps(verdicts))
"""

REFUSED = [
    "http://127.0.0.1:8000/hook",
    "http://localhost/hook",
    "http://10.0.0.5/hook",
    "http://192.168.1.2/hook",
    "http://169.254.169.254/latest/meta-data/",
    "http://[::1]/hook",
    "http://[::ffff:127.0.0.1]/hook",
    "http://0.0.0.0/hook",
]
PUBLIC = "https://93.184.215.14/revalidate"


def verdicts(urls: list[str], **env: str) -> dict[str, str]:
    result = run_python(CHECK % (urls,), production_env(**env))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])  # after the JSON log lines


def test_production_refuses_private_loopback_and_link_local_receivers():
    found = verdicts([*REFUSED, PUBLIC])
    assert found.pop(PUBLIC) == "allowed"
    for url, verdict in found.items():
        assert "private, loopback or link-local" in verdict, url


def test_production_allows_them_when_the_setting_says_so():
    found = verdicts(REFUSED[:2], WEBHOOK_ALLOW_PRIVATE_ADDRESSES="1")
    assert set(found.values()) == {"allowed"}


@pytest.mark.parametrize("url", ["ftp://example.org/hook", "file:///etc/passwd", "gopher://x/"])
def test_only_http_and_https(url):
    with pytest.raises(UnsafeURL, match="Only http and https"):
        check_url(url)


def test_a_delivery_to_an_address_now_refused_fails_without_sending(endpoint, receiver, settings):
    delivery = outbox.enqueue_test_event(endpoint)
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False  # e.g. its DNS now points inside
    assert deliveries.attempt(delivery.pk).status == "failed"
    delivery.refresh_from_db()
    assert delivery.status == Delivery.Status.FAILED and "127.0.0.1" in delivery.error
    assert receiver.received == []


def test_redirects_are_not_followed(endpoint, receiver):
    from tests.webhooks.receiver import Reply

    receiver.replies = [Reply(307, headers={"Location": "http://169.254.169.254/"})]
    delivery = outbox.enqueue_test_event(endpoint)
    assert deliveries.attempt(delivery.pk).status == "failed"
    delivery.refresh_from_db()
    assert delivery.response_code == 307 and len(receiver.received) == 1
