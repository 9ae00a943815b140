"""Editors own the English tree, Translators the zh-hant one; the setup is idempotent."""

import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django.urls import reverse
from wagtail.models import GroupPagePermission

pytestmark = pytest.mark.django_db


def test_translator_can_edit_and_publish_zh_hant_but_not_english(translator, digest_en, digest_zh):
    en_perms = digest_en.permissions_for_user(translator)
    zh_perms = digest_zh.permissions_for_user(translator)
    assert not en_perms.can_edit()
    assert not en_perms.can_publish()
    assert zh_perms.can_edit()
    assert zh_perms.can_publish()
    assert translator.has_perm("wagtail_localize.submit_translation")


def test_editor_can_edit_and_publish_english_but_not_zh_hant(editor, digest_en, digest_zh):
    assert digest_en.permissions_for_user(editor).can_publish()
    assert not digest_zh.permissions_for_user(editor).can_edit()


def test_translator_cannot_publish_english_through_the_admin(client, translator, digest_en):
    client.force_login(translator)
    edit_url = reverse("wagtailadmin_pages:edit", args=[digest_en.pk])

    response = client.post(
        edit_url,
        {
            "title": "Hijacked",
            "slug": digest_en.slug,
            "short_name": digest_en.short_name,
            "reading_minutes": 5,
            "summary": "Hijacked",
            "body-count": 0,
            "action-publish": "action-publish",
        },
    )

    assert response.status_code == 302
    assert response.url != edit_url
    digest_en.refresh_from_db()
    assert digest_en.title != "Hijacked"
    assert digest_en.latest_revision.user is None


def test_translator_can_open_the_zh_hant_editor(client, translator, digest_zh):
    client.force_login(translator)
    response = client.get(reverse("wagtailadmin_pages:edit", args=[digest_zh.pk]))
    assert response.status_code == 200
    assert b"wagtail_localize" in response.content or b"editTranslation" in response.content


def test_setup_command_is_idempotent(digest_en):
    call_command("setup_translation_roles", verbosity=0)
    count = GroupPagePermission.objects.count()
    call_command("setup_translation_roles", verbosity=0)
    assert GroupPagePermission.objects.count() == count
    translators = Group.objects.get(name="Translators")
    assert {p.page.locale.language_code for p in translators.page_permissions.all()} == {"zh-hant"}


@pytest.mark.parametrize(
    ("user", "shown"),
    [("translator", {"edit"}), ("editor", {"edit", "delete", "move", "copy"})],
)
def test_the_listing_offers_only_what_the_role_may_do(client, request, user, shown, digest_zh):
    person = request.getfixturevalue(user)
    page = digest_zh if user == "translator" else request.getfixturevalue("digest_en")
    client.force_login(person)
    html = client.get(reverse("wagtailadmin_explore", args=[page.get_parent().pk])).content.decode()
    offered = {
        action
        for action in ("edit", "delete", "move", "copy")
        if reverse(f"wagtailadmin_pages:{action}", args=[page.pk]) in html
    }
    assert offered == shown


def test_local_logins_have_names(settings):
    """Wagtail's account page asks for a name before it saves anything, the admin language
    included: the local logins of `make run` come with one."""
    from django.contrib.auth import get_user_model

    settings.DEBUG = True
    call_command("create_local_admin", verbosity=0)
    call_command("setup_translation_roles", "--local-users", verbosity=0)
    users = get_user_model().objects.filter(username__in=["admin", "editor", "translator"])
    assert sorted(user.get_full_name() for user in users) == [
        "Local Admin",
        "Local Editor",
        "Local Translator",
    ]


def test_the_admin_dashboard_does_not_ask_other_hosts_for_releases(admin_client):
    """The admin's CSP allows no request to other hosts: Wagtail's release check is off."""
    assert b"w-upgrade" not in admin_client.get(reverse("wagtailadmin_home")).content
