"""The POST data of the admin's page and paper forms, as the browser sends it, built with
Wagtail's form-data helpers (`wagtail.test.utils.form_data`)."""

from __future__ import annotations

from typing import Any

from wagtail.test.utils.form_data import inline_formset, nested_form_data, streamfield

from cms.digests.models import DigestPage, TopicPage
from cms.papers.models import Paper


def page_form(page, fields: list[str], **changes: Any) -> dict:
    """`page`'s `fields` as they stand, no comments, with `changes` (nested: a streamfield's
    or formset's data as the helpers make it)."""
    data = {name: getattr(page, name) for name in ["title", "slug", *fields]}
    data["comments"] = inline_formset([])
    data.update(changes)
    return nested_form_data(data)


def topic_form(page: TopicPage, **changes: Any) -> dict:
    fields = ["intro", "finish_first", "finish_first_url"]
    return page_form(page, fields, **{"commentary": streamfield([]), **changes})


def digest_form(page: DigestPage, **changes: Any) -> dict:
    fields = ["short_name", "reading_minutes", "summary"]
    changes = {"paper": page.paper_id or "", "body": streamfield([]), **changes}
    return page_form(page, fields, **changes)


def paper_form(paper: Paper | None = None, **changes: Any) -> dict:
    """The paper form with its current values (a paper without authors, links or affiliations),
    or a new paper's."""
    data = {
        "title": paper.title if paper else "",
        "venue": paper.venue if paper else Paper._meta.get_field("venue").choices[0][0],
        "year": paper.year if paper else 2024,
        "track": paper.track if paper else "",
        "abstract": paper.abstract if paper else "",
        **{prefix: inline_formset([]) for prefix in ("authors", "affiliations", "links")},
    }
    data.update(changes)
    return nested_form_data(data)
