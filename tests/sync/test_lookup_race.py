"""Two editors' "Add paper" for the same paper at the same moment (or one editor's double
click), each past the existence check before the other has written: one paper, not two."""

import contextlib
import threading

import pytest
from django.db import connection

from cms.papers.models import Paper
from sync import lookup, services

PARCAE = "https://dblp.org/rec/conf/nsdi/DuanSM24.html"  # no DOI: only its title and key


@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_adds_of_a_paper_without_a_doi_make_one_paper(
    lookup_upstream, monkeypatch
):
    found = lookup.look_up(PARCAE)
    assert not any(change.field == "doi" for change in found.changes)
    checked = threading.Barrier(2, timeout=3)
    original = services.existing_paper

    def existing_paper(**kwargs):
        paper = original(**kwargs)
        # Both requests have looked before either writes: the race, made certain (unless the
        # other waits for this one's lock instead).
        with contextlib.suppress(threading.BrokenBarrierError):
            checked.wait()
        return paper

    monkeypatch.setattr(services, "existing_paper", existing_paper)
    outcomes, errors = [], []

    def add():
        try:
            outcomes.append(services.paper_create_from_lookup(found=found))
        except Exception as error:
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=add) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)

    assert errors == []
    assert Paper.objects.filter(dblp_key="conf/nsdi/DuanSM24").count() == 1
    assert sorted(created for _, created in outcomes) == [False, True]
    assert len({paper.pk for paper, _ in outcomes}) == 1
