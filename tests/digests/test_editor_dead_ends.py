"""Editors are told why a new page cannot be saved, and the admin names the product."""

import re

import pytest
from django.core.management import call_command
from django.urls import reverse
from wagtail.models import Site

from cms.digests.models import DigestPage, TopicPage
from cms.translation.policy.roles import EDITORS
from tests.support.factories import add_draft_digest
from tests.support.users import member

pytestmark = pytest.mark.django_db


@pytest.fixture
def editor(db):
    user = member(EDITORS, "editor")
    return user


@pytest.fixture
def topic():
    return TopicPage.objects.filter(locale__language_code="en").order_by("path").first()


@pytest.fixture
def abandoned_draft(topic):
    """What an abandoned first try leaves: an autosaved draft holding the title's slug."""
    return add_draft_digest(topic, "QueueBench", summary="First try.")


def create_digest(client, topic, **fields):
    data = {
        "title": "QueueBench",
        "slug": "queuebench",
        "short_name": "QueueBench",
        "reading_minutes": 3,
        "summary": "Second try.",
        "body-count": 0,
        **fields,
    }
    return client.post(
        reverse("wagtailadmin_pages:add", args=("digests", "digestpage", topic.pk)), data
    )


def test_a_slug_clash_is_explained_on_the_title_with_a_link_to_the_draft(
    client, editor, topic, abandoned_draft
):
    client.force_login(editor)

    response = create_digest(client, topic)

    assert response.status_code == 200
    title_errors = response.context["form"].errors["title"]
    assert len(title_errors) == 1
    assert "“queuebench”" in title_errors[0] and "(draft)" in title_errors[0]
    edit_url = reverse("wagtailadmin_pages:edit", args=[abandoned_draft.pk])
    assert f'<a href="{edit_url}">' in response.content.decode()
    assert DigestPage.objects.filter(slug="queuebench").count() == 1


def test_a_free_slug_still_creates_the_page(client, editor, topic, abandoned_draft):
    client.force_login(editor)

    response = create_digest(client, topic, slug="queuebench-2")

    assert response.status_code == 302
    assert DigestPage.objects.filter(slug="queuebench-2", summary="Second try.").exists()


def test_the_seeded_site_is_named_after_the_product(client, editor):
    site = Site.objects.get(is_default_site=True)
    assert site.site_name == "Research digests"

    client.force_login(editor)
    html = client.get(reverse("wagtailadmin_home")).content.decode()

    heading = re.search(r'<h1 class="w-h1[^"]*">\s*(.*?)\s*</h1>', html, re.S).group(1)
    assert heading == "Research digests"


def test_set_site_address_names_an_unnamed_site_and_keeps_a_chosen_name():
    site = Site.objects.get(is_default_site=True)
    site.site_name = ""
    site.save()

    call_command("set_site_address", "http://127.0.0.1:8000", stdout=None)
    site.refresh_from_db()
    assert (site.hostname, site.site_name) == ("127.0.0.1", "Research digests")

    site.site_name = "Our digests"
    site.save()
    call_command("set_site_address", "http://127.0.0.1:8001", stdout=None)
    site.refresh_from_db()
    assert site.site_name == "Our digests"


def test_the_add_child_page_form_is_not_autosaved_and_the_edit_form_is(client, editor, topic):
    """Wagtail 8 autosaves a create form by creating the page: an abandoned "Add child page"
    became a draft whose slug blocked the next try. The create form of the project's pages
    is not autosaved; once the page exists, its edit form is, as Wagtail does."""
    client.force_login(editor)
    add = reverse("wagtailadmin_pages:add", args=("digests", "digestpage", topic.pk))
    assert "w-autosave" not in edit_form_controllers(client.get(add))
    draft = add_draft_digest(topic, "QueueBench")
    edit = reverse("wagtailadmin_pages:edit", args=(draft.pk,))
    assert "w-autosave" in edit_form_controllers(client.get(edit))


def edit_form_controllers(response) -> list[str]:
    """The Stimulus controllers on the page form, the one that warns of unsaved changes
    (`w-autosave` when Wagtail autosaves it)."""
    controllers = re.findall(r'data-controller="([^"]*w-unsaved[^"]*)"', response.content.decode())
    assert len(controllers) == 1, controllers
    return controllers[0].split()
