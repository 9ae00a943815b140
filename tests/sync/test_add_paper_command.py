"""`manage.py add_paper`: what it prints, what it adds or links, and when it adds nothing."""

import io

import pytest
from django.core.management import CommandError, call_command

from cms.papers.models import Paper

pytestmark = pytest.mark.django_db

HPN_DOI = "10.1145/3651890.3672265"


def add_paper(*args):
    out = io.StringIO()
    call_command("add_paper", *args, stdout=out)
    return out.getvalue()


def test_adds_a_paper_by_doi_and_prints_each_field_s_source(lookup_upstream):
    out = add_paper(f"https://doi.org/{HPN_DOI}", "--yes")
    paper = Paper.objects.get(doi=HPN_DOI)
    assert paper.venue == "SIGCOMM" and paper.year == 2024
    assert "Alibaba HPN: A Data Center Network for Large Language Model Training  [DBLP]" in out
    assert "Kun Qian, Yongqing Xi, Jiamin Cao  [DBLP]" in out
    assert f"Added: http://testserver/admin/snippets/papers/paper/edit/{paper.pk}/" in out


def test_links_a_paper_the_site_has_instead_of_adding_it(lookup_upstream):
    add_paper(HPN_DOI, "--yes")
    count = Paper.objects.count()
    out = add_paper("https://openalex.org/W4401000001", "--yes")
    pk = Paper.objects.get(doi=HPN_DOI).pk
    assert f"Already on the site: http://testserver/admin/snippets/papers/paper/edit/{pk}/" in out
    assert Paper.objects.count() == count


def test_without_yes_and_a_terminal_nothing_is_added(lookup_upstream):
    out = add_paper(HPN_DOI)
    assert "pass --yes" in out
    assert not Paper.objects.filter(doi=HPN_DOI).exists()


def test_an_identifier_nothing_matches_fails_and_adds_none_of_the_others(lookup_upstream):
    count = Paper.objects.count()
    with pytest.raises(CommandError, match=r"10\.1145/0000000\.9999999.*Nothing was added"):
        add_paper(HPN_DOI, "10.1145/0000000.9999999", "--yes")
    assert Paper.objects.count() == count


def test_unrecognised_input_is_named_before_any_source_is_asked(lookup_upstream):
    with pytest.raises(CommandError, match=r"ftp://example\.org/x"):
        add_paper(HPN_DOI, "ftp://example.org/x", "--yes")
    assert lookup_upstream.log == []


def test_a_title_with_several_candidates_lists_them_and_adds_nothing(lookup_upstream):
    count = Paper.objects.count()
    out = io.StringIO()
    with pytest.raises(CommandError, match="several papers"):
        call_command(
            "add_paper",
            "Data Center Network for Large Language Model Training",
            "--yes",
            stdout=out,
        )
    assert "SIGCOMM 2024; Kun Qian, Yongqing Xi, Jiamin Cao) 10.1145/3651890.3672265" in (
        out.getvalue()
    )
    assert "IEEE Micro 2025" in out.getvalue()
    assert Paper.objects.count() == count
