"""The error a source's request raises, kept outside `sync.sources`.

The pace keeper (sync/politeness.py) raises it too, and `sync.sources` imports the pace keeper,
so the error lives below both.
"""


class SourceError(Exception):
    """A request to a source failed: the papers it was for get an error, nothing else."""

    def __init__(self, message: str, *, retry_later: bool = False):
        super().__init__(message)
        self.retry_later = retry_later
