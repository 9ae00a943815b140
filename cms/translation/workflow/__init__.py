"""Moving translations along: the queue, syncs, prefills, notices, publishing, the tree."""
