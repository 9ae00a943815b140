import pytest

from tests.sync.conftest import upstream  # noqa: F401 (the local upstream for sync events)
from tests.webhooks.receiver import Receiver


@pytest.fixture
def receiver():
    found = Receiver().start()
    yield found
    found.stop()


@pytest.fixture
def endpoint(db, receiver):
    """An endpoint for every event at the local receiver, whose secret the receiver holds."""
    from cms.webhooks.models import EVENT_TYPES, Endpoint

    found = Endpoint.objects.create(url=receiver.url, events=[kind for kind, _label in EVENT_TYPES])
    receiver.secrets.append(found.secret)
    return found


def deliver_pending() -> list[str]:
    """Attempt every pending delivery once, here (the worker's service, without the broker)."""
    from cms.webhooks import deliveries
    from cms.webhooks.models import Delivery

    pending = Delivery.objects.filter(status=Delivery.Status.PENDING).order_by("pk")
    return [deliveries.attempt(pk).status for pk in pending.values_list("pk", flat=True)]
