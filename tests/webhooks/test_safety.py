"""Safe by default: http(s) only; private, loopback and link-local receivers refused under the
production settings (run in a subprocess with cms.settings.production) unless allowed; a
delivery connects to an address that was checked, whatever DNS answers after the check."""

from __future__ import annotations

import json
import socket
import ssl

import pytest
import trustme

from cms.webhooks import deliveries, outbox
from cms.webhooks.addresses import UnsafeURL, check_url
from cms.webhooks.models import EVENT_TYPES, Delivery, Endpoint
from tests.ops.test_production_settings import production_env, run_python
from tests.webhooks.receiver import Receiver

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
    "http://[64:ff9b::7f00:1]/hook",  # NAT64 to 127.0.0.1
    "http://[2002:7f00:1::]/hook",  # 6to4 from 127.0.0.1
    "http://[::127.0.0.1]/hook",  # IPv4-compatible
    "http://[::ffff:0:127.0.0.1]/hook",  # IPv4-translated (SIIT)
    "http://[64:ff9b:1::7f00:1]/hook",  # local-use NAT64
    "http://[64:ff9b:1::5db8:d70e]/hook",  # local-use NAT64, even to a public address
    "http://[::93.184.215.14]/hook",  # IPv4-compatible, even to a public address
]
PUBLIC_ADDRESS = "93.184.215.14"
PUBLIC = f"https://{PUBLIC_ADDRESS}/revalidate"
PUBLIC_NAT64 = "https://[64:ff9b::5db8:d70e]/revalidate"  # to PUBLIC_ADDRESS


def verdicts(urls: list[str], **env: str) -> dict[str, str]:
    result = run_python(CHECK % (urls,), production_env(**env))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])  # after the JSON log lines


def test_production_refuses_private_loopback_and_link_local_receivers():
    found = verdicts([*REFUSED, PUBLIC, PUBLIC_NAT64])
    assert found.pop(PUBLIC) == found.pop(PUBLIC_NAT64) == "allowed"
    for url, verdict in found.items():
        assert "private, loopback or link-local" in verdict, url


def test_production_allows_them_when_the_setting_says_so():
    found = verdicts(REFUSED[:2], WEBHOOK_ALLOW_PRIVATE_ADDRESSES="1")
    assert set(found.values()) == {"allowed"}


def test_a_port_out_of_range_is_named_as_such():
    with pytest.raises(UnsafeURL, match="port is not a number from 1 to 65535"):
        check_url("https://example.org:99999/hook")


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


@pytest.fixture
def dns(monkeypatch):
    """Made-up host names (or addresses) and their DNS answers ("a" or "a,b"), given in turn
    (the last one repeats); other names resolve as usual. It answers every resolver in this process,
    urllib3's included, so mapping an address to another routes its connections there."""
    answers: dict[str, list[str]] = {}
    real = socket.getaddrinfo

    def getaddrinfo(host, port, *args, **kwargs):
        queue = answers.get(host)
        if not queue:
            return real(host, port, *args, **kwargs)
        answer = queue.pop(0) if len(queue) > 1 else queue[0]
        return [found for each in answer.split(",") for found in real(each, port, *args, **kwargs)]

    monkeypatch.setattr(socket, "getaddrinfo", getaddrinfo)
    return answers


def endpoint_at(url: str, receiver: Receiver) -> Endpoint:
    endpoint = Endpoint.objects.create(url=url, events=[kind for kind, _label in EVENT_TYPES])
    receiver.secrets.append(endpoint.secret)
    return endpoint


def test_a_delivery_goes_to_the_address_checked_not_to_a_later_dns_answer(db, dns, settings):
    settings.WEBHOOK_ALLOW_PRIVATE_ADDRESSES = False  # as in production
    public = Receiver().start()
    inside = Receiver(host="127.0.0.2", port=public.port).start()  # same port, another host
    try:
        dns[PUBLIC_ADDRESS] = ["127.0.0.1"]  # the public address is served here, by `public`
        # DNS rebinding: the check is told a public address, anything later an internal one.
        dns["hooks.example"] = [PUBLIC_ADDRESS, "127.0.0.2"]
        url = f"http://hooks.example:{public.port}/revalidate"
        delivery = outbox.enqueue_test_event(endpoint_at(url, public))
        assert deliveries.attempt(delivery.pk).status == "delivered"
        assert inside.received == []
        assert [r.headers["host"] for r in public.received] == [f"hooks.example:{public.port}"]
        assert len(public.payloads()) == 1  # signed as ever
    finally:
        public.stop()
        inside.stop()


def test_https_is_verified_against_the_urls_host_while_connecting_to_the_checked_address(
    db, dns, settings, tmp_path
):
    authority = trustme.CA()
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("hooks.example").configure_cert(server_context)
    authority.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    settings.WEBHOOK_CA_BUNDLE = str(tmp_path / "ca.pem")
    receiver = Receiver(tls=server_context).start()
    try:
        dns["hooks.example"] = dns["impostor.example"] = ["127.0.0.1"]
        port = receiver.port
        genuine = outbox.enqueue_test_event(
            endpoint_at(f"https://hooks.example:{port}/revalidate", receiver)
        )
        assert deliveries.attempt(genuine.pk).status == "delivered"
        assert receiver.received[0].headers["host"] == f"hooks.example:{port}"

        impostor = outbox.enqueue_test_event(
            endpoint_at(f"https://impostor.example:{port}/revalidate", receiver)
        )
        assert deliveries.attempt(impostor.pk).status == "retry"
        impostor.refresh_from_db()
        assert "impostor.example" in impostor.error and impostor.response_code is None
        assert len(receiver.received) == 1
    finally:
        receiver.stop()


def test_an_address_that_refuses_the_connection_is_followed_by_the_next_one(db, dns, receiver):
    dns["hooks.example"] = ["::1,127.0.0.1"]  # nothing listens on the receiver's port at ::1
    url = f"http://hooks.example:{receiver.port}/revalidate"
    delivery = outbox.enqueue_test_event(endpoint_at(url, receiver))
    assert deliveries.attempt(delivery.pk).status == "delivered"
    assert len(receiver.payloads()) == 1
