"""The admin's "Add from identifier": in the Papers listing (a page of its own) and in the
digest page's paper chooser (a panel above the "New paper" form, cms/papers/extensions.py).

One view serves both. An editor types what they have; the lookup (sync/lookup.py) runs in the
request with a short overall deadline and says which sources did not answer. A title shows its
candidates to pick from; an identifier shows the merged record with each field's source, and
"Add paper" saves that very record (kept for a while under a token, so saving asks no source
again). A paper the site already has is never added twice: the editor is taken to it (in the
chooser, it is chosen).
"""

from __future__ import annotations

import uuid

from django.contrib import messages
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import View
from wagtail.admin.auth import permission_denied
from wagtail.admin.modal_workflow import render_modal_workflow
from wagtail.permissions import policy_registry

from cms.papers.chooser import chooser_creation_panel
from cms.papers.models import Paper

from . import lookup, services
from .identifiers import MAX_CHARS, UnrecognisedIdentifier

FOUND_KEPT_SECONDS = 15 * 60


def may_add_papers(user) -> bool:
    """Adding papers is the Paper model's `add` permission (editors yes, translators no), read
    through the policy Wagtail registered for papers, as its snippet add view and
    cms.translation.policy.rules.may_edit_snippet read it."""
    return policy_registry.get_by_type(Paper).user_has_permission(user, "add")


class AddFromIdentifierView(View):
    """GET: the form. POST `identifier`: look it up. POST `token` (+`identifier`): save."""

    in_chooser = False
    page_title = gettext_lazy("Add a paper from its identifier")

    def dispatch(self, request, *args, **kwargs):
        if not may_add_papers(request.user):
            if self.in_chooser:
                raise PermissionDenied
            return permission_denied(request)
        return super().dispatch(request, *args, **kwargs)

    def get(self, request):
        return self.render({"identifier": request.GET.get("identifier", "")})

    def post(self, request):
        text = request.POST.get("identifier", "").strip()
        token = request.POST.get("token", "")
        found = cache.get(self._key(token)) if token else None
        if found is None:
            try:
                found = lookup.look_up(text)
            except (UnrecognisedIdentifier, lookup.NotFound) as error:
                # shown again to correct, as much of it as may be looked up
                return self.render({"identifier": text[:MAX_CHARS], "error": str(error)})
        if found.existing_id:
            return self.done(Paper.objects.get(pk=found.existing_id), created=False)
        if token and not found.problem and not found.candidates:
            cache.delete(self._key(token))
            paper, created = services.paper_create_from_lookup(found=found)
            return self.done(paper, created=created)
        token = ""
        if not found.candidates and not found.problem:
            token = uuid.uuid4().hex
            cache.set(self._key(token), found, FOUND_KEPT_SECONDS)
        return self.render(
            {
                "identifier": text,
                "found": found,
                "token": token,
                "rows": lookup.shown_fields(found) if token else [],
                "unanswered": list(found.unanswered.items()),
            }
        )

    def _key(self, token: str) -> str:
        return f"sync:lookup:{self.request.user.pk}:{token}"

    def done(self, paper: Paper, *, created: bool):
        if self.in_chooser:  # the snippet chooser's own answer for a chosen paper
            return redirect(reverse("wagtailsnippetchoosers_papers_paper:chosen", args=[paper.pk]))
        if created:
            messages.success(self.request, _("Added “%(title)s”.") % {"title": paper.title})
        else:
            messages.info(
                self.request,
                _("“%(title)s” is on the site already: here it is.") % {"title": paper.title},
            )
        return redirect("wagtailsnippets_papers_paper:edit", paper.pk)

    def render(self, context: dict):
        context = {
            **context,
            "action_url": reverse("sync_lookup_chooser" if self.in_chooser else "sync_lookup"),
            "in_chooser": self.in_chooser,
            "max_chars": MAX_CHARS,
        }
        if self.in_chooser:
            extras = render_to_string("sync/lookup_chooser_panel.html", context, self.request)
            html = chooser_creation_panel(self.request, extras)
            return render_modal_workflow(
                self.request,
                None,
                None,
                None,
                json_data={"step": "reshow_creation_form", "htmlFragment": html},
            )
        context.update(
            page_title=self.page_title,
            header_icon="doc-full",
            breadcrumbs_items=[
                {"url": reverse("wagtailadmin_home"), "label": _("Home")},
                {"url": reverse("wagtailsnippets_papers_paper:list"), "label": _("Papers")},
                {"url": "", "label": self.page_title},
            ],
        )
        return TemplateResponse(self.request, "sync/add_from_identifier.html", context)


def chooser_panel_html(request) -> str:
    """The identifier form above the chooser's "New paper" form, for those who may add."""
    if not may_add_papers(request.user):
        return ""
    context = {
        "action_url": reverse("sync_lookup_chooser"),
        "in_chooser": True,
        "max_chars": MAX_CHARS,
    }
    return render_to_string("sync/lookup_form.html", context, request)
