"""`papers_changed`: sent by writers that change papers without model signals.

The sync worker writes papers, authors, affiliations and links in batched UPDATEs and bulk
inserts (sync/services.py), which send no `post_save`. It sends this instead, so that whatever
reacts to a paper edit (the API's content version, the frontend-cache purge) hears of it the
same way for every writer; an editor's save in the admin announces itself through `post_save`.
"""

from django.dispatch import Signal

# sender: the Paper class; paper_ids: the ids of the papers whose rows changed; fields (optional):
# paper id -> the names of the fields written.
papers_changed = Signal()

# Sent when a sync run ends (finished or failed), after its writes: sender: the run's class;
# summary: a JSON-ready dict of the run's counts and times; paper_ids: the papers it changed.
# Defined here, beside papers_changed, so the CMS hears of syncs without knowing the worker.
sync_finished = Signal()

# Sent by the sync worker after it stored update notices it had not seen before (a retraction, a
# correction...): sender: the Paper class; notice_ids: the new PaperNotice rows' ids. Editors are
# told of each once.
notices_added = Signal()
