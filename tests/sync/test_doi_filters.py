"""DOIs that the sources' filter syntax cannot carry.

Crossref separates filters with commas (`filter=doi:A,doi:B`) and OpenAlex ORs values with `|`
and ANDs them with `+` (`filter=doi:A|B`); neither documents a way to escape them inside a value.
A paper whose DOI holds one of them, put in a batch's filter, used to fail the whole batch: the
stand-in answers as the APIs do, 400 (Crossref) or 403 (OpenAlex) for a filter it cannot read.
"""

import copy

import pytest

from sync.sources.base import PaperQuery
from tests.support.upstream import source

from .test_sources import BYTESCALE

ODD_DOI = "10.1145/3718958.3750999,v2|b+c"

pytestmark = pytest.mark.django_db


def odd_paper(upstream) -> PaperQuery:
    """A paper with an odd DOI, known to both sources (copies of ByteScale's records)."""
    catalog = upstream.catalog
    work = copy.deepcopy(catalog.crossref_by_doi[BYTESCALE.doi])
    work["DOI"] = ODD_DOI
    work["title"] = ["Odd: A Paper Whose DOI Has Commas"]
    catalog.crossref.append(work)
    openalex = copy.deepcopy(catalog.openalex_by_doi[BYTESCALE.doi][0])
    openalex.update(
        doi=f"https://doi.org/{ODD_DOI}",
        id="https://openalex.org/W4999999999",
        title="Odd: A Paper Whose DOI Has Commas",
        display_name="Odd: A Paper Whose DOI Has Commas",
    )
    catalog.openalex.append(openalex)
    catalog.index()
    return PaperQuery(
        paper_id=99,
        title="Odd: A Paper Whose DOI Has Commas",
        venue="SIGCOMM",
        year=2025,
        doi=ODD_DOI,
    )


@pytest.mark.parametrize("name", ["crossref", "openalex"])
def test_a_doi_with_filter_separators_neither_fails_its_batch_nor_goes_unfound(upstream, name):
    odd = odd_paper(upstream)

    result = source(name).fetch([BYTESCALE, odd])

    assert result.errors == {}
    assert result.records[BYTESCALE.paper_id].doi == BYTESCALE.doi
    assert result.records[odd.paper_id].doi == ODD_DOI
