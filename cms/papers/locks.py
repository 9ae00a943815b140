"""The paper fields an editor can lock, so that the sync worker never overwrites them.

Apart from the model because the model imports the admin form, which reads them too.
"""

from django.utils.translation import gettext_lazy as _

# Fields an editor can pin so that the sync worker never overwrites them.
# Provenance keys that are no field of their own, and the lockable field that covers each.
PROVENANCE_LOCKED_BY = {"orcid": "authors"}

LOCKABLE_FIELDS = [
    ("title", _("Title")),
    ("venue", _("Venue")),
    ("year", _("Year")),
    ("track", _("Track")),
    ("authors", _("Authors")),
    ("affiliations", _("Affiliations")),
    ("doi", _("DOI")),
    ("dblp_key", _("DBLP key")),
    ("openalex_id", _("OpenAlex id")),
    ("semantic_scholar_id", _("Semantic Scholar id")),
    ("arxiv_id", _("arXiv id")),
    ("preprint_doi", _("Preprint DOI")),
    ("abstract", _("Abstract")),
    ("links", _("Links")),
]
