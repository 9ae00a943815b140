"""Serializer pieces the API's endpoints share, in DRF terms only (page models import them, so
nothing here may load Wagtail's API modules)."""

from rest_framework import serializers

# The serializer context's key for the language of the page being serialized
# (cms.api.serializers.PageSerializer sets it): its rich text links to pages in that language,
# and its paper's venue is named in it (cms.papers.serializers).
PAGE_LANGUAGE = "page_language"


class WholeInstanceField(serializers.Field):
    """A read-only field computed from the whole instance, not from one attribute of it."""

    def __init__(self, **kwargs):
        super().__init__(**{**kwargs, "read_only": True, "source": "*"})  # DRF: the whole instance
