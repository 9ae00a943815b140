"""A figure's image stays the English one on the zh-hant page (cms/digests/blocks.py).

wagtail-localize extracts a chooser's value as an overridable segment and its editor's
"edit_override" URL lets anyone who may edit the page replace it. Translators translate text:
the image, like the page's other synchronized fields, follows English unless an administrator
decides otherwise (cms.translation.policy.rules.may_override_synchronized).
"""

import html
import json
import re
from urllib.parse import urlencode

import pytest
from django.contrib.messages import get_messages
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

    # A plain refusal for the editor's JavaScript, not the admin's redirect to the dashboard
    # with "Sorry, you do not have permission" queued for whatever page opens next.
    assert response.status_code == 403
    assert not [m for m in get_messages(response.wsgi_request) if "permission" in str(m)]
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


def test_translator_cannot_revert_an_administrators_override(
    client, admin_user, translator, figure_translation
):
    translation, segment, _english, other = figure_translation
    client.force_login(admin_user)
    assert _put_override(client, translation, segment, other.pk).status_code == 201
    client.force_login(translator)

    response = client.delete(
        reverse("wagtail_localize:edit_override", args=[translation.pk, segment.pk])
    )

    assert response.status_code == 403
    assert SegmentOverride.objects.filter(context_id=segment.context_id).exists()


def _editor_props(response) -> dict:
    match = re.search(
        r'class="js-translation-editor" data-props="([^"]*)"', response.content.decode()
    )
    assert match, "no translation editor on the page"
    return json.loads(html.unescape(match.group(1)))


def _synchronized_segments(props: dict) -> list[dict]:
    return [s for s in props["segments"] if s["type"] == "synchronised_value"]


def test_translation_editor_offers_translators_no_override(client, translator, figure_translation):
    """The editor's JavaScript draws "Change image" on every synchronized value for anyone who
    may edit the page; what the translator would be refused is not offered at all."""
    translation, _segment, _english, _other = figure_translation
    client.force_login(translator)
    zh = translation.get_target_instance()

    props = _editor_props(client.get(reverse("wagtailadmin_pages:edit", args=[zh.pk])))

    assert _synchronized_segments(props) == []
    assert props["initialOverrides"] == []
    # Still every text to translate, the figure's caption included.
    assert any(s["contentPath"].endswith(".caption") for s in props["segments"])


def test_translation_editor_still_offers_administrators_the_override(
    client, admin_user, figure_translation
):
    translation, segment, _english, other = figure_translation
    client.force_login(admin_user)
    assert _put_override(client, translation, segment, other.pk).status_code == 201
    zh = translation.get_target_instance()

    props = _editor_props(client.get(reverse("wagtailadmin_pages:edit", args=[zh.pk])))

    assert [s["id"] for s in _synchronized_segments(props)] == [segment.pk]
    assert [o["segment_id"] for o in props["initialOverrides"]] == [segment.pk]
