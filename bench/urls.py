"""The project's URLs plus the baselines, on paths the project never serves.

`bench/uncached/` mounts the project's own API router again, outside `/api/`, where the response
cache does not apply; it keeps the router's application namespace so the links inside responses
(meta.detail_url) are the same bytes as under `/api/v2/`.
"""

from django.urls import include, path

from cms.urls import api_router
from cms.urls import urlpatterns as project_urlpatterns

from .baselines import floor_view, stock_router

urlpatterns = [
    path("bench/stock/", stock_router.urls),
    path(
        "bench/uncached/",
        include(
            (api_router.get_urlpatterns(), api_router.url_namespace), namespace="benchuncached"
        ),
    ),
    path("bench/floor/<slug:name>/", floor_view),
    *project_urlpatterns,
]
