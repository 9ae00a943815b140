"""The "Edit this paper" link is offered only to users who may edit papers.

wagtail-localize's editor draws a synchronized snippet from its snippets API and links to the
`edit_url` it returns, and Wagtail's own editor (a translation stopped with "Stop translation")
links from the paper chooser; a translator following either was refused (papers are editors'
work).
"""

import pytest
from django.urls import reverse
from wagtail_localize.models import Translation

pytestmark = pytest.mark.django_db


def snippet_json(client, user, paper, name: str = "snippets_api_detail") -> dict:
    client.force_login(user)
    args = ["papers", "paper", paper.pk] if name == "snippets_api_detail" else ["papers", "paper"]
    response = client.get(reverse(f"wagtail_localize:{name}", args=args))
    assert response.status_code == 200
    return response.json()


def test_translators_get_the_paper_without_an_edit_link(client, translator, digest_en):
    paper = digest_en.paper

    detail = snippet_json(client, translator, paper)
    listing = snippet_json(client, translator, paper, "snippets_api_listing")

    assert detail == {"id": paper.pk, "title": str(paper), "edit_url": None}
    assert {item["edit_url"] for item in listing} == {None}
    # What the link used to lead them to: Wagtail's snippet editor refuses them.
    edit_url = reverse("wagtailsnippets_papers_paper:edit", args=[paper.pk])
    assert client.get(edit_url).status_code in (302, 403)


@pytest.mark.parametrize("who", ["editor", "admin_user"])
def test_users_who_may_edit_papers_keep_the_link_and_it_opens(client, request, who, digest_en):
    user = request.getfixturevalue(who)
    paper = digest_en.paper

    detail = snippet_json(client, user, paper)

    edit_url = reverse("wagtailsnippets_papers_paper:edit", args=[paper.pk])
    assert detail["edit_url"] == edit_url
    response = client.get(edit_url)
    assert response.status_code == 200
    assert paper.title in response.content.decode()


def edit_form_html(client, page) -> str:
    response = client.get(reverse("wagtailadmin_pages:edit", args=[page.pk]))
    assert response.status_code == 200
    assert 'name="paper"' in response.content.decode()  # Wagtail's editor, with the chooser
    return "".join(response.content.decode().split())  # the link's text spans lines


def test_a_stopped_translation_s_paper_chooser_has_no_edit_link_for_translators(
    client, translator, admin_user, digest_en, digest_zh
):
    # Stopping is for administrators (cms.translation.policy.rules.may_stop_translation); the
    # translator then edits the page in Wagtail's own editor.
    client.force_login(admin_user)
    translation = Translation.objects.get(
        source__object_id=digest_en.translation_key, target_locale=digest_zh.locale
    )
    client.post(reverse("wagtail_localize:stop_translation", args=[translation.pk]))
    client.force_login(translator)

    html = edit_form_html(client, digest_zh)

    assert "Editthispaper" not in html
    assert reverse("wagtailsnippets_papers_paper:edit", args=[digest_en.paper_id]) not in html


def test_an_editor_s_paper_chooser_keeps_its_edit_link(client, editor, digest_en):
    client.force_login(editor)

    html = edit_form_html(client, digest_en)

    assert "Editthispaper" in html
