"""The reader's page routes: page paths mirror Wagtail's URL paths (/<topic>/<digest>/).

The catch-all is named `wagtail_serve`, the name Wagtail reverses for `Page.url`, so the API's
`html_url` and the admin's "View live" lead to the reader now that Wagtail serves no templates.
cms/urls.py mounts these routes in `i18n_patterns`, which adds `/zh-hant/` for Chinese pages.
"""

from django.urls import re_path

from . import views

urlpatterns = [
    re_path(r"^((?:[-\w]+/){0,2})$", views.reader_shell, name="wagtail_serve"),
]
