"""A frontend-cache backend for tests: records the URLs it is asked to purge."""

from wagtail.contrib.frontend_cache.backends.base import BaseBackend

purged_urls: list[str] = []


class RecordingBackend(BaseBackend):
    def purge(self, url: str) -> None:
        purged_urls.append(url)
