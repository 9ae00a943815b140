"""The Editors and Translators groups and the Wagtail rights each holds.

Page permissions in Wagtail apply to a page and everything below it, so each group is granted
rights on one language's tree root: Editors on the English site root, Translators on its zh-hant
translation. A translator therefore cannot edit or publish an English page, nor an editor a
zh-hant one. Both may start and sync translations (wagtail-localize's `submit_translation`),
which only ever makes drafts. What Wagtail's rights cannot say (translators delete nothing, the
direction of translation, the zh-Hant guard) is decided in cms.translation.policy.rules.
"""

from dataclasses import dataclass, field

from django.contrib.auth.models import Group, Permission
from django.db import transaction
from wagtail.models import Collection, GroupCollectionPermission, GroupPagePermission

from cms.translation.languages import SOURCE_LANGUAGE, TARGET_LANGUAGE, language_root

EDITORS = "Editors"
TRANSLATORS = "Translators"

COMMON_PERMISSIONS = ["wagtailadmin.access_admin", "wagtail_localize.submit_translation"]


@dataclass(frozen=True)
class Role:
    group: str
    language: str
    page_permissions: list[str]
    model_permissions: list[str] = field(default_factory=list)
    collection_permissions: list[str] = field(default_factory=list)
    # Wagtail lets change + publish delete a page; a role without this deletes nothing.
    may_delete: bool = True


ROLES = [
    Role(
        group=EDITORS,
        language=SOURCE_LANGUAGE,
        # bulk_delete_page: Wagtail lets a role delete only pages without children otherwise,
        # so an editor could not delete a topic with its digests (policy.may_delete keeps the
        # site root itself out of reach).
        page_permissions=[
            "add_page",
            "change_page",
            "publish_page",
            "bulk_delete_page",
            "lock_page",
            "unlock_page",
        ],
        model_permissions=[
            *COMMON_PERMISSIONS,
            "papers.add_paper",
            "papers.change_paper",
            "terminology.view_glossaryterm",
        ],
        collection_permissions=["wagtailimages.add_image", "wagtailimages.choose_image"],
    ),
    Role(
        group=TRANSLATORS,
        language=TARGET_LANGUAGE,
        page_permissions=["change_page", "publish_page"],
        model_permissions=[
            *COMMON_PERMISSIONS,
            # Translators keep the glossary (cms.terminology).
            "terminology.add_glossaryterm",
            "terminology.change_glossaryterm",
            "terminology.delete_glossaryterm",
            "terminology.view_glossaryterm",
        ],
        may_delete=False,
    ),
]


def _permission(dotted: str) -> Permission:
    app_label, codename = dotted.split(".")
    return Permission.objects.get(content_type__app_label=app_label, codename=codename)


@transaction.atomic
def ensure_roles() -> dict[str, Group]:
    """Create or complete both groups and scope their page rights; idempotent."""
    groups = {}
    for role in ROLES:
        group, _created = Group.objects.get_or_create(name=role.group)
        group.permissions.add(*(_permission(name) for name in role.model_permissions))
        root = language_root(role.language)
        # Wagtail's first migration creates an "Editors" group with rights on the whole tree,
        # both languages; a role's page rights are exactly those on its own language's root.
        GroupPagePermission.objects.filter(group=group).exclude(page=root).delete()
        for codename in role.page_permissions:
            GroupPagePermission.objects.get_or_create(
                group=group,
                page=root,
                permission=_permission(f"wagtailcore.{codename}"),
            )
        collection = Collection.get_first_root_node()
        for name in role.collection_permissions:
            GroupCollectionPermission.objects.get_or_create(
                group=group, collection=collection, permission=_permission(name)
            )
        groups[role.group] = group
    return groups
