"""Batched reads of paper metadata for the API.

A page of API results needs the authors, affiliations, links and update notices of up to 100
papers. Reading them as plain rows costs a fraction of Django's prefetch, which builds a model
instance per author and runs each through modelcluster's manager.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from functools import reduce
from operator import or_
from typing import TYPE_CHECKING

from django.db import connections
from django.db.models import Exists, OuterRef, Q, QuerySet
from django.http import HttpRequest
from wagtail import hooks

from cms.api.search import search_terms

from .doi import bare_doi
from .parts import NOTICE_COLUMNS, NOTICE_ORDER, PREFETCHED_PARTS, PaperParts, author_as_dict

if TYPE_CHECKING:
    from wagtail.models import Orderable

    from .models import Paper


def attach_paper_parts(papers: Iterable[Paper]) -> None:
    """Load the authors, affiliations, links and notices of all `papers` (two queries for any
    number)."""
    from .models import PaperAffiliation, PaperAuthor, PaperLink, PaperNotice

    by_id: dict[int, list[Paper]] = defaultdict(list)  # digests in two languages share a paper
    for paper in papers:
        if paper is not None:
            by_id[paper.pk].append(paper)
    if not by_id:
        return
    parts = {pk: PaperParts() for pk in by_id}
    ids = list(by_id)
    authors, affiliations, links = child_rows(
        [
            (PaperAuthor, ("name", "given", "family", "orcid", "affiliations")),
            (PaperAffiliation, ("name",)),
            (PaperLink, ("label", "url")),
        ],
        ids,
    )
    for paper_id, *author in authors:
        parts[paper_id].authors.append(author_as_dict(*author))
    for paper_id, name in affiliations:
        parts[paper_id].affiliations.append(name)
    for paper_id, label, url in links:
        parts[paper_id].links.append({"label": label, "url": url})
    # Few papers have notices: values_list's tuples cost little, and the ORM says NULLS LAST
    # on either database (NOTICE_ORDER).
    notices = PaperNotice.objects.filter(paper_id__in=ids).order_by(*NOTICE_ORDER)
    for paper_id, *notice, seen in notices.values_list(
        "paper_id", *NOTICE_COLUMNS, "first_seen_at"
    ):
        parts[paper_id].add_notice(*notice, first_seen_at=seen)
    for pk, instances in by_id.items():
        for paper in instances:
            setattr(paper, PREFETCHED_PARTS, parts[pk])


def child_rows(
    tables: list[tuple[type[Orderable], tuple[str, ...]]], paper_ids: list[int]
) -> list[list[list]]:
    """For each (model, columns) of `tables`, the (paper id, *columns) of its rows of
    `paper_ids` in their editorial order: one query for all (UNION ALL, shorter rows padded
    with NULLs, which both databases type after the other branches' columns).

    Plain SQL through Django's cursor, the same on every database: building these small
    queries was most of what the ORM spent on a detail's paper, and one query rather than one
    per table keeps a list request within its budget of queries. Values are converted as the
    ORM converts them (the JSON of an author's affiliations).
    """
    found: list[list[list]] = [[] for _table in tables]
    if not paper_ids:
        return found
    connection = connections[tables[0][0].objects.db]
    quote = connection.ops.quote_name
    width = max(len(columns) for _model, columns in tables)
    selects, converters = [], []
    for index, (model, columns) in enumerate(tables):
        meta = model._meta
        fields = [meta.get_field(name) for name in ("paper", *columns)]
        selected = [quote(f.column) for f in fields] + ["NULL"] * (width - len(columns))
        order = [quote(meta.get_field("sort_order").column), quote(meta.pk.column)]
        selects.append(
            "SELECT {}, {}, {} FROM {} WHERE {} IN ({})".format(
                index,
                ", ".join(selected),
                ", ".join(order),
                quote(meta.db_table),
                quote(fields[0].column),
                ", ".join(["%s"] * len(paper_ids)),
            )
        )
        converters.append([getattr(f, "from_db_value", None) for f in fields])
    # By table, then editorial order: the kind, sort_order and pk columns, by position.
    sql = " UNION ALL ".join(selects) + f" ORDER BY 1, {width + 3}, {width + 4}"
    with connection.cursor() as cursor:
        cursor.execute(sql, paper_ids * len(tables))
        rows = cursor.fetchall()
    for index, *values in rows:
        convert_row = converters[index]  # the table's own columns; padding and order dropped
        found[index].append(
            [
                value if convert is None else convert(value, None, connection)
                for value, convert in zip(values[: len(convert_row)], convert_row, strict=True)
            ]
        )
    return found


PUBLIC_PAPERS_CONDITION_HOOK = "register_public_papers_condition"


def papers_on_public_pages(request: HttpRequest, *, language: str | None = None) -> QuerySet:
    """The papers that a live, public page shows to `request` (in `language` if given).

    The papers endpoint's exposure rule: a paper is public only through a page the pages API
    would show to the same request (cms.api.visibility decides which), so papers of draft,
    unpublished, private or unreachable pages, and their authors, never appear. The apps whose
    pages show papers say which through the `register_public_papers_condition` hook: each
    function takes `(request, language)` and returns a condition on Paper (cms.digests'
    wagtail_hooks); with none registered, no paper is public.
    """
    from .models import Paper

    conditions = [
        condition(request, language) for condition in hooks.get_hooks(PUBLIC_PAPERS_CONDITION_HOOK)
    ]
    if not conditions:
        return Paper.objects.none()
    return Paper.objects.filter(reduce(or_, conditions))


def paper_search_condition(terms: list[str], *, operator: str = "and") -> Q:
    """Papers whose title, DOI, venue (acronym or name) or an author's name holds every term
    (any term with operator "or"), ignoring case."""
    from .models import PaperAuthor, Venue

    condition = Q()
    for term in terms:
        venues = [venue for venue, name in Venue.choices if term in f"{venue} {name}".casefold()]
        authors = PaperAuthor.objects.filter(paper_id=OuterRef("pk"), name__icontains=term)
        term_condition = (
            Q(title__icontains=term)
            | Q(doi__icontains=term)
            | Q(venue__in=venues)
            | Q(Exists(authors))
        )
        condition = condition | term_condition if operator == "or" else condition & term_condition
    return condition


def search_papers(papers: QuerySet, query: str) -> QuerySet:
    """The admin's paper search (the Papers listing and the paper chooser), as the papers API
    searches: every term in the title, DOI, venue or an author's name. A DOI is looked for as
    it is stored (cms.papers.doi), so one pasted as a doi.org link or with "doi:" is found."""
    terms = [bare_doi(term) or term for term in search_terms(query)]
    return papers.filter(paper_search_condition(terms))
