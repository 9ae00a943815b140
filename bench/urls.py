"""The project's URLs plus the baselines, on paths the project never serves.

`bench/uncached/` mounts the project's own API router again, outside `/api/`, where the response
cache does not apply; it keeps the router's application namespace so the links inside responses
(meta.detail_url) are the same bytes as under `/api/v2/`. `admin/bench-stock-dashboard/` is
Wagtail's dashboard without the project's panels (bench/stock_dashboard.py).
"""

from django.urls import include, path

from cms.urls import api_router
from cms.urls import urlpatterns as project_urlpatterns

from .baselines import floor_view, stock_router
from .stock_dashboard import stock_dashboard

urlpatterns = [
    path("bench/stock/", stock_router.urls),
    path(
        "bench/uncached/",
        include(
            (api_router.get_urlpatterns(), api_router.url_namespace), namespace="benchuncached"
        ),
    ),
    path("bench/floor/<slug:name>/", floor_view),
    path("admin/bench-stock-dashboard/", stock_dashboard),
    *project_urlpatterns,
]
