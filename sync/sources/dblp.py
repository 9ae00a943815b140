"""DBLP: curated titles and author order. One table-of-contents query covers a whole proceedings.

API: https://dblp.org/faq/How+to+use+the+dblp+search+API.html (`/search/publ/api`, `format=json`),
`toc:db/<stream>.bht:` queries list a proceedings. Quirks handled: a single author (and, in some
responses, a single hit) comes as an object rather than a list; `ee` is a string or a list;
titles end with a period; homonyms carry a four-digit suffix ("Wei Wang 0001").
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..conf import sync_setting
from ..matching import best_match
from ..text import bare_doi, clean_person_name, clean_title
from .base import AuthorRecord, FetchResult, PaperQuery, PaperRecord, Source, SourceError, as_list

SEARCH_PATH = "/search/publ/api"
MAX_HITS = 1000


class DblpSource(Source):
    label = "DBLP"

    def toc_query(self, venue: str, year: int) -> str | None:
        stream = sync_setting("SYNC_DBLP_STREAMS").get(venue)
        return f"toc:db/{stream.format(year=year)}.bht:" if stream else None

    def table_of_contents(self, venue: str, year: int) -> list[PaperRecord]:
        """Every paper DBLP lists in the proceedings of `venue` `year`."""
        query = self.toc_query(venue, year)
        if query is None:
            raise SourceError(f"dblp: no table of contents known for venue {venue!r}")
        return self._search(query, MAX_HITS)

    def fetch(self, queries: list[PaperQuery]) -> FetchResult:
        result = FetchResult()
        groups: dict[tuple[str, int], list[PaperQuery]] = defaultdict(list)
        for query in queries:
            groups[(query.venue, query.year)].append(query)
        for (venue, year), group in groups.items():
            try:
                records = self.table_of_contents(venue, year)
            except SourceError as error:
                for query in group:
                    result.errors[query.paper_id] = str(error)
                    if error.retry_later:
                        result.retry_later.add(query.paper_id)
                continue
            by_key = {record.ids.get("dblp_key"): record for record in records}
            for query in group:
                record = by_key.get(query.ids.get("dblp_key")) or best_match(query, records)
                if record is not None:
                    result.records[query.paper_id] = record
        return result

    def _search(self, q: str, hits: int) -> list[PaperRecord]:
        data = self.get_json(SEARCH_PATH, params={"q": q, "format": "json", "h": hits})
        try:
            hit_list = as_list(data["result"]["hits"].get("hit"))
        except (KeyError, TypeError, AttributeError) as error:
            raise SourceError(f"dblp: unexpected response shape ({error})") from error
        return [record for hit in hit_list if (record := self.parse_hit(hit)) is not None]

    def parse_hit(self, hit: dict[str, Any]) -> PaperRecord | None:
        info = hit.get("info") if isinstance(hit, dict) else None
        if not isinstance(info, dict) or not info.get("title"):
            return None
        authors = [
            AuthorRecord(name=clean_person_name(a.get("text") if isinstance(a, dict) else a))
            for a in as_list((info.get("authors") or {}).get("author"))
        ]
        key = info.get("key", "")
        venue = " ".join(as_list(info.get("venue")))
        ee = [url for url in as_list(info.get("ee")) if isinstance(url, str)]
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
            title=clean_title(info["title"]),
            raw_title=info["title"],
            year=year,
            authors=authors,
            doi=bare_doi(info.get("doi")),
            ids=ids,
            links=[("DBLP", info["url"])] if info.get("url") else [],
            venue=venue,
            is_preprint=key.startswith("journals/corr/") or venue == "CoRR",
        )
