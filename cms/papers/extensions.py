"""Public extension points of the paper admin, for apps that add other ways to make a paper
(the sync's "Add from identifier"): the papers app itself knows nothing of them.

- `register_paper_listing_header_buttons`: a Wagtail hook; each function takes the request
  and returns header buttons (`wagtail.admin.widgets.HeaderButton`) for the Papers listing.
- `insert_paper_chooser_creation_html`: a Wagtail hook; each function takes the request and
  returns HTML shown above the paper chooser's "New paper" form (only to those who may add
  papers). A form in it marked `data-chooser-modal-creation-form` is submitted by the chooser's
  own modal script, and its view answers as the chooser's creation view does: a
  "reshow_creation_form" step (`chooser.chooser_creation_panel` renders the panel, the paper form
  still below what the view shows, with what was typed into it), or the chosen paper. The
  paper form is marked `data-paper-form`; a script of the extension may post its values along
  as `paper-<field>`, and the panel shows them again (`typed_paper_fields`).
"""

from __future__ import annotations

from django.http import QueryDict
from django.utils.safestring import SafeString, mark_safe
from wagtail import hooks

LISTING_HEADER_BUTTONS_HOOK = "register_paper_listing_header_buttons"
CHOOSER_CREATION_HTML_HOOK = "insert_paper_chooser_creation_html"


def listing_header_buttons(request) -> list:
    return [button for fn in hooks.get_hooks(LISTING_HEADER_BUTTONS_HOOK) for button in fn(request)]


def chooser_creation_html(request) -> SafeString:
    return mark_safe(
        "".join(str(fn(request)) for fn in hooks.get_hooks(CHOOSER_CREATION_HTML_HOOK))
    )


PAPER_FIELD_PREFIX = "paper-"


def typed_paper_fields(data: QueryDict) -> dict[str, str]:
    """What the editor had typed into the paper form, posted along as `paper-<field>`."""
    return {
        name.removeprefix(PAPER_FIELD_PREFIX): value
        for name, value in data.items()
        if name.startswith(PAPER_FIELD_PREFIX)
    }
