"""Update notices of papers as the sync stores them (PaperNotice rows), after the recorded
Crossref answers of plan §1: a retraction from Retraction Watch's database (the Wakefield
paper's), a publisher's correction, an expression of concern, and OpenAlex's bare flag."""

from __future__ import annotations

import datetime

from cms.papers.models import Paper, PaperNotice

RETRACTION = {
    "notice_doi": "10.1016/s0140-6736(10)60175-4",
    "update_type": "retraction",
    "label": "Retraction",
    "source": "retraction-watch",
    "record_id": "4036",
    "updated_on": datetime.date(2010, 2, 6),
}
CORRECTION = {
    "notice_doi": "10.1016/s0140-6736(04)15715-2",
    "update_type": "correction",
    "label": "Correction",
    "source": "publisher",
    "updated_on": datetime.date(2004, 3, 6),
}
CONCERN = {
    "notice_doi": "10.5555/concern.2025.1",
    "update_type": "expression_of_concern",
    "label": "Expression of concern",
    "source": "publisher",
    "updated_on": datetime.date(2025, 5, 1),
}
OPENALEX_FLAG = {
    "notice_doi": "",
    "update_type": "retraction",
    "label": "Retracted",
    "source": "openalex",
}


def add_notice(paper: Paper, notice: dict, **changes) -> PaperNotice:
    """A stored notice of `paper` (one of the examples above, with `changes`)."""
    return PaperNotice.objects.create(paper=paper, **{**notice, **changes})


def as_api(notice: dict) -> dict:
    """The notice as `updates` in the API shows it."""
    date = notice.get("updated_on")
    return {
        "type": notice["update_type"],
        "doi": notice["notice_doi"] or None,
        "date": date.isoformat() if date else None,
        "source": notice["source"],
        "label": notice["label"],
    }
