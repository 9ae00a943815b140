"""The admin form of topics and digests: a slug clash explained where the editor is looking.

Wagtail reports a taken slug on the slug field, which sits on the Promote tab, while the editor
is on the Content tab. A first try that was abandoned leaves an autosaved draft with the slug
the title gives, so the second try fails there with no visible reason. The same error is
therefore also put on the title, naming the page that holds the slug and linking to it, so the
editor can continue that draft instead.
"""

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from wagtail.admin.forms import WagtailAdminPageForm
from wagtail.models import Page


class SlugClashExplainedPageForm(WagtailAdminPageForm):
    def clean(self):
        slug = self.cleaned_data.get("slug")
        cleaned_data = super().clean()
        if slug and "slug" in self.errors and self.parent_page is not None:
            holder = self.slug_holder(slug)
            if holder is not None:
                self.add_error("title", self.clash_message(holder, slug))
        return cleaned_data

    def slug_holder(self, slug: str) -> Page | None:
        siblings = self.parent_page.get_children().filter(slug=slug)
        if self.instance.pk:
            siblings = siblings.exclude(pk=self.instance.pk)
        return siblings.first()

    def clash_message(self, holder: Page, slug: str) -> str:
        state = _("live") if holder.live else _("draft")
        text = _(
            "Another page here already has the address “{slug}”: “{title}” ({state}). "
            "Continue that page, or change this title or the slug on the Promote tab."
        )
        user = getattr(self, "for_user", None)
        if user is not None and holder.permissions_for_user(user).can_edit():
            return format_html(
                text + ' <a href="{url}">{link}</a>',
                slug=slug,
                title=holder.get_admin_display_title(),
                state=state,
                url=reverse("wagtailadmin_pages:edit", args=[holder.pk]),
                link=_("Open “{title}”").format(title=holder.get_admin_display_title()),
            )
        return text.format(slug=slug, title=holder.get_admin_display_title(), state=state)


class TopicPageForm(SlugClashExplainedPageForm):
    """A topic's "chapter to finish first": the reader shows its link under the chapter's
    text, so a link without the text would be saved and published and shown to no one."""

    def clean(self):
        cleaned_data = super().clean()
        if (
            cleaned_data.get("finish_first_url")
            and not cleaned_data.get("finish_first", "").strip()
        ):
            self.add_error(
                "finish_first",
                _("Say which chapter to finish first: readers see the link only below this text."),
            )
        return cleaned_data
