"""The two baselines every API figure is compared with, served by the same server.

- the stock Wagtail `PagesAPIViewSet`, whose nested paper is serialized naively (one paper,
  its authors, affiliations and links fetched per item);
- the floor: a plain Django view returning the exact bytes of the project's response,
  precomputed, so it measures only the server, middleware and network.
"""

from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpResponse
from wagtail.api.v2.router import WagtailAPIRouter
from wagtail.api.v2.views import PagesAPIViewSet

stock_router = WagtailAPIRouter("benchstockapi")
stock_router.register_endpoint("pages", PagesAPIViewSet)

_floor_bodies: dict[str, bytes] = {}


def floor_view(request, name: str) -> HttpResponse:
    """Serve a response body saved by the runner, read once per worker."""
    body = _floor_bodies.get(name)
    if body is None:
        path = Path(settings.BENCH_FLOOR_DIR) / f"{name}.json"
        if not path.is_file():
            raise Http404(name)
        body = _floor_bodies[name] = path.read_bytes()
    return HttpResponse(body, content_type="application/json")
