"""DBLP: curated titles and author order. One table-of-contents query covers a whole proceedings.

API: https://dblp.org/faq/How+to+use+the+dblp+search+API.html (`/search/publ/api`, `format=json`),
`toc:db/<stream>.bht:` queries list a proceedings. Quirks handled: a single author (and, in some
responses, a single hit) comes as an object rather than a list; `ee` is a string or a list;
titles end with a period; homonyms carry a four-digit suffix ("Wei Wang 0001").
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from functools import partial
from typing import Any

from ..conf import sync_setting
from ..errors import SourceError
from ..identifiers import DBLP, TITLE, USENIX, Identifier, venue_of_dblp_key
from ..text import bare_doi, clean_person_name, dblp_title
from .base import AuthorRecord, FetchResult, PaperQuery, PaperRecord, Source, as_list

SEARCH_PATH = "/search/publ/api"
MAX_HITS = 1000
TITLE_HITS = 30  # a title search's best hits: an editor picks among the first few
_WORDS = re.compile(r"[^\W_]+")


class DblpSource(Source):
    label = "DBLP"

    def toc_query(self, venue: str, year: int) -> str | None:
        stream = sync_setting("SYNC_DBLP_STREAMS").get(venue)
        return f"toc:db/{stream.format(year=year)}.bht:" if stream else None

    def table_of_contents(self, venue: str, year: int) -> list[PaperRecord]:
        """Every paper DBLP lists in the proceedings of `venue` `year` (once per run)."""
        query = self.toc_query(venue, year)
        if query is None:
            raise SourceError(f"dblp: no table of contents known for venue {venue!r}")
        return self.listing(query, lambda: self._search(query))

    def fetch_each(self, queries: list[PaperQuery]) -> Iterator[tuple[list[int], FetchResult]]:
        groups: dict[tuple[str, int], list[PaperQuery]] = defaultdict(list)
        for query in queries:
            groups[(query.venue, query.year)].append(query)
        for (venue, year), group in groups.items():
            toc = partial(self.table_of_contents, venue, year)
            yield [q.paper_id for q in group], self.found_in(group, toc)

    def resolve(self, identifier: Identifier) -> list[PaperRecord]:
        """A DBLP key or a USENIX presentation page through its proceedings' table of contents
        (the one the sync reads: dblp's search API finds neither a key nor an `ee` URL);
        a title through dblp's search."""
        if identifier.kind == TITLE:
            return self._search(" ".join(_WORDS.findall(identifier.value)), most=TITLE_HITS)
        if identifier.kind == DBLP:
            venue, year = venue_of_dblp_key(identifier.value)
            wanted = lambda record: record.ids.get("dblp_key") == identifier.value  # noqa: E731
        elif identifier.kind == USENIX:
            # USENIX pages are matched by the `ee` URL dblp records for each paper, in the table
            # of contents of the conference and year the URL names; USENIX offers no API.
            venue, year = identifier.venue, identifier.year
            wanted = lambda record: identifier.value in map(_usenix_url, record.urls)  # noqa: E731
        else:
            return []
        if not venue or not year or not self.toc_query(venue, year):
            return []
        return [record for record in self.table_of_contents(venue, year) if wanted(record)]

    def _search(self, q: str, *, most: int = 0) -> list[PaperRecord]:
        """Every hit for `q` (or the `most` best), a page of at most MAX_HITS (the API's
        ceiling) at a time."""
        records: list[PaperRecord] = []
        first = 0
        while True:
            params = {"q": q, "format": "json", "h": most or MAX_HITS, "f": first}
            data = self.get_json(SEARCH_PATH, params=params)
            with self.shape_checked():
                hits = data["result"]["hits"]
                hit_list = as_list(hits.get("hit"))
                total = int(hits.get("@total", len(hit_list)))
            records += self.parse_all(hit_list, self.parse_hit)
            first += len(hit_list)
            if not hit_list or first >= total or most:
                return records

    def parse_hit(self, hit: dict[str, Any]) -> PaperRecord | None:
        info = hit.get("info") if isinstance(hit, dict) else None
        raw_title = _text(info.get("title")) if isinstance(info, dict) else ""
        if not raw_title:
            return None
        authors = [
            AuthorRecord.person(name)
            for a in as_list((info.get("authors") or {}).get("author"))
            if (name := clean_person_name(_text(a)))
        ]
        key = info.get("key", "")
        venue = " ".join(_text(v) for v in as_list(info.get("venue")))
        ee = [url for e in as_list(info.get("ee")) if (url := _text(e))]
        arxiv = next((u.rsplit("/", 1)[-1] for u in ee if "arxiv.org/abs/" in u), "")
        ids = {"dblp_key": key} if key else {}
        if arxiv:
            ids["arxiv_id"] = arxiv
        try:
            year = int(info.get("year"))
        except (TypeError, ValueError):
            year = None
        return PaperRecord(
            source=self.name,
            title=dblp_title(raw_title),
            raw_title=raw_title,
            year=year,
            authors=authors,
            doi=bare_doi(info.get("doi")),
            ids=ids,
            links=[("DBLP", info["url"])] if info.get("url") else [],
            venue=venue,
            urls=tuple(ee),
            is_preprint=key.startswith("journals/corr/") or venue == "CoRR",
        )


def _text(value: Any) -> str:
    """A field's text: a string, or (older answers, authors) `{"text": ..., "@...": ...}`."""
    if isinstance(value, dict):
        value = value.get("text")
    return value if isinstance(value, str) else ""


def _usenix_url(url: str) -> str:
    """A USENIX page's address as sync/identifiers.py normalises it."""
    url = url.strip().rstrip("/").lower().replace("http://", "https://")
    return url.replace("https://usenix.org/", "https://www.usenix.org/")
