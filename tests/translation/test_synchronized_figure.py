"""A figure's image stays the English one on the zh-hant page (cms/digests/blocks.py).

wagtail-localize extracts a chooser's value as an overridable segment and its editor's
"edit_override" URL lets anyone who may edit the page replace it. Translators translate text:
the image, like the page's other synchronized fields, follows English unless an administrator
decides otherwise (cms.translation.policy.may_override_synchronized).
"""

from urllib.parse import urlencode

import pytest
from django.urls import reverse
from wagtail.images import get_image_model
from wagtail.images.tests.utils import get_test_image_file
from wagtail_localize.models import OverridableSegment, SegmentOverride

pytestmark = pytest.mark.django_db


@pytest.fixture
def figure_translation(new_digest, start_translation):
    images = get_image_model()
    english = images.objects.create(title="Figure 1", file=get_test_image_file())
    other = images.objects.create(title="Unrelated", file=get_test_image_file())
    page = new_digest("A digest with a figure.")
    page.body = [("figure", {"image": english, "caption": "Throughput", "alt_text": ""})]
    page.save_revision().publish()
    translation = start_translation(page)
    segment = OverridableSegment.objects.get(
        source=translation.source, context__path__endswith=".image"
    )
    return translation, segment, english, other


def _put_override(client, translation, segment, value):
    return client.put(
        reverse("wagtail_localize:edit_override", args=[translation.pk, segment.pk]),
        urlencode({"value": value}),
        content_type="application/x-www-form-urlencoded",
    )


def test_translator_cannot_replace_the_figure_image(client, translator, figure_translation):
    translation, segment, english, other = figure_translation
    client.force_login(translator)

    response = _put_override(client, translation, segment, other.pk)

    assert response.status_code in (302, 403)
    assert not SegmentOverride.objects.filter(context_id=segment.context_id).exists()
    translation.save_target(publish=True)
    zh = translation.get_target_instance()
    assert zh.body[0].value["image"].pk == english.pk


def test_administrator_may_still_override_it(client, admin_user, figure_translation):
    translation, segment, _english, other = figure_translation
    client.force_login(admin_user)

    response = _put_override(client, translation, segment, other.pk)

    assert response.status_code == 201
    translation.save_target(publish=True)
    assert translation.get_target_instance().body[0].value["image"].pk == other.pk
