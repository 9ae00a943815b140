"""A local stand-in for DBLP, Crossref, OpenAlex and Semantic Scholar, for tests and benchmarks.

One HTTP server answers the paths the sync clients call, in each API's real response schema,
from a `Catalog` of records: the recorded responses (tests) or records built for the benchmark's
synthetic papers. Nothing here is used by the running site.
"""

from .catalog import Catalog
from .server import SOURCES, Canned, Logged, Upstream, busiest_window, pointed_at

__all__ = ["SOURCES", "Canned", "Catalog", "Logged", "Upstream", "busiest_window", "pointed_at"]
