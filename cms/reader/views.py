"""Serve the reader's HTML shell; everything on the page comes from the API in the browser."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import cache_control, never_cache


@cache_control(public=True, max_age=300)
def reader_shell(request: HttpRequest, path: str = "") -> HttpResponse:
    """The index, a topic (`<topic>/`) or a digest (`<topic>/<digest>/`): one shell for all."""
    return render(request, "reader/shell.html", {"preview": False})


@never_cache
def preview_shell(request: HttpRequest) -> HttpResponse:
    """Where the admin's headless preview points: the shell in preview mode, never cached."""
    response = render(request, "reader/shell.html", {"preview": True})
    response["X-Robots-Tag"] = "noindex"
    return response
