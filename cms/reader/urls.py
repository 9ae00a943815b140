"""The reader's routes: page paths mirror Wagtail's URL paths (/<topic>/<digest>/).

The catch-all is named `wagtail_serve`, the name Wagtail reverses for `Page.url`, so the API's
`html_url` and the admin's "View live" lead to the reader now that Wagtail serves no templates.
"""

from django.urls import path, re_path

from . import views

urlpatterns = [
    path("preview/", views.preview_shell, name="reader_preview"),
    re_path(r"^((?:[-\w]+/){0,2})$", views.reader_shell, name="wagtail_serve"),
]
