"""What an editor types on a topic page reaches readers, or the form says why it cannot."""

import pytest
from django.urls import reverse

from cms.digests.models import TopicPage
from cms.translation.policy.roles import EDITORS
from tests.support.admin_forms import topic_form
from tests.support.users import member

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(client):
    client.force_login(member(EDITORS))
    return client


def test_a_chapter_link_without_the_chapter_is_refused_on_the_chapter_field(editor):
    """The reader shows the link under the chapter's text only: alone, it was saved and
    published and never shown to anyone."""
    topic = TopicPage.objects.filter(locale__language_code="en").first()
    revisions = topic.revisions.count()
    url = reverse("wagtailadmin_pages:edit", args=[topic.pk])
    data = topic_form(topic, intro="Typed with care", finish_first="")
    data["finish_first_url"] = "https://example.org/chapter-3"

    response = editor.post(url, data)

    assert response.status_code == 200
    form = response.context["form"]
    assert "finish_first" in form.errors
    assert form["intro"].value() == "Typed with care"
    assert form["finish_first_url"].value() == "https://example.org/chapter-3"
    assert topic.revisions.count() == revisions


def test_a_chapter_with_its_link_is_saved(editor):
    topic = TopicPage.objects.filter(locale__language_code="en").first()
    url = reverse("wagtailadmin_pages:edit", args=[topic.pk])
    data = topic_form(
        topic,
        finish_first="Finish chapter 3 first: the others use its model.",
        finish_first_url="https://example.org/chapter-3",
    )

    assert editor.post(url, data).status_code == 302

    draft = TopicPage.objects.get(pk=topic.pk).get_latest_revision_as_object()
    assert draft.finish_first_url == "https://example.org/chapter-3"
