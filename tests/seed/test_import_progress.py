"""import_digests shows a progress bar per page on a terminal's stderr, and a summary line."""

import io

import pytest
from django.core.management import call_command

from cms.seed.parse import load_seed

pytestmark = pytest.mark.django_db


class Terminal(io.StringIO):
    """A stream that says it is a terminal, as an operator's stderr is."""

    def isatty(self) -> bool:
        return True


def _run(*args, stderr: io.StringIO, **options) -> str:
    out = io.StringIO()
    call_command("import_digests", *args, stdout=out, stderr=stderr, **options)
    return out.getvalue()


def test_a_terminal_sees_a_bar_counting_every_page_and_a_summary_line(seed_path):
    pages = load_seed(seed_path).page_count
    stderr = Terminal()

    output = _run("--update", stderr=stderr)

    bar = stderr.getvalue()
    assert f"{pages}/{pages}" in bar and "100%" in bar
    assert "page/s" in bar or "s/page" in bar
    last = output.strip().splitlines()[-1]
    assert last.startswith("Done in ") and f"pages unchanged: {pages}" in last


def test_no_bar_when_stderr_is_not_a_terminal():
    stderr = io.StringIO()
    output = _run(stderr=stderr)
    assert stderr.getvalue() == ""
    assert "Done in " in output


@pytest.mark.parametrize(("args", "verbosity"), [(("--no-progress",), 1), ((), 0)])
def test_no_bar_when_asked(args, verbosity):
    stderr = Terminal()
    output = _run(*args, stderr=stderr, verbosity=verbosity)
    assert stderr.getvalue() == ""
    assert ("Done in " in output) == (verbosity > 0)


def test_verbosity_2_names_each_page_and_what_happened_to_it(seed_path):
    output = _run(stderr=io.StringIO(), verbosity=2)
    seed = load_seed(seed_path)
    assert f"{seed.topics[0].digests[0].short_name}: kept" in output.splitlines()
    assert sum(line.endswith(": kept") for line in output.splitlines()) == seed.page_count
